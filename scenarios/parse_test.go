package scenarios

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// subdomainMsg is apimachinery's explanation of a DNS subdomain, which follows a bad name.
const subdomainMsg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`

// head is the first three lines of every test scenario; spec starts on line 4.
const head = "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: t}\n"

// specWith returns a scenario whose spec (line 4) holds duration: 30s and the given lines,
// indented by two spaces, from line 6 on.
func specWith(lines ...string) string {
	var b strings.Builder
	b.WriteString(head + "spec:\n  duration: 30s\n")
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // every line of the error, in order
	}{
		{
			name:  "empty file",
			input: "",
			want:  []string{`t.yaml:1:1: the file is empty; expected a scenario (apiVersion: kubeloom.dev/v1, kind: Scenario, metadata, spec)`},
		},
		{
			name:  "only a comment",
			input: "# nothing here\n",
			want:  []string{`t.yaml:1:1: the file is empty; expected a scenario (apiVersion: kubeloom.dev/v1, kind: Scenario, metadata, spec)`},
		},
		{
			name:  "YAML syntax error",
			input: head + "spec:\n  duration: [1\n",
			want:  []string{`t.yaml:5:13: invalid YAML: sequence end token ']' not found`},
		},
		{
			name:  "tab indentation",
			input: head + "spec:\n\tduration: 30s\n",
			want:  []string{`t.yaml:5:1: invalid YAML: found character '\t' that cannot start any token`},
		},
		{
			// YAML allows no control character but tab and line breaks (issue 30: a raw
			// escape sequence in a description reached the terminal in scenarios show).
			name:  "a raw control character",
			input: "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: t, description: \"x\x1b]0;title\x07\"}\n",
			want:  []string{`t.yaml:3:36: the control character '\x1b' is not allowed in YAML; in a double-quoted string, write it as an escape such as \e or \x00`},
		},
		{
			name:  "a C1 control character",
			input: head + "spec: {duration: 1s}\r\n# \u009b2J\n",
			want:  []string{`t.yaml:5:3: the control character '\u009b' is not allowed in YAML; in a double-quoted string, write it as an escape such as \e or \x00`},
		},
		{
			name:  "not UTF-8",
			input: head + "\r# \xff\n",
			want:  []string{`t.yaml:5:3: the byte 0xff is not UTF-8; a scenario file is UTF-8 text`},
		},
		{
			// A key is part of the field path as written: what does not print is escaped, so
			// that an error cannot set the terminal's title or clipboard (issue 30).
			name:  "control characters in a key",
			input: head + "spec:\n  duration: 1s\n  \"\\e]52;c;aGk=\\a\\u009b2J\": 1\n",
			want:  []string{`t.yaml:6:3: spec.\x1b]52;c;aGk=\x07\u009b2J: unknown field; expected one of duration, speed, seed, era, eras, apiServer, controllerManager, kubelets, informers, objects, actions`},
		},
		{
			name:  "two documents",
			input: "a: 1\n---\nb: 2\n",
			want:  []string{`t.yaml:2:1: a second YAML document starts here; a scenario file holds exactly one scenario`},
		},
		{
			name:  "not a mapping",
			input: "- 1\n",
			want:  []string{`t.yaml:1:1: expected a scenario: a mapping with apiVersion, kind, metadata and spec, got a list`},
		},
		{
			name:  "missing top-level fields",
			input: "kind: Scenario\n",
			want: []string{
				`t.yaml:1:1: apiVersion: required field is missing; expected "kubeloom.dev/v1"`,
				`t.yaml:1:1: metadata: required field is missing; expected a mapping with the scenario's name and description`,
				`t.yaml:1:1: spec: required field is missing; expected a mapping with at least duration`,
			},
		},
		{
			name:  "unknown top-level field",
			input: head + "spec: {duration: 1s}\nstatus: {}\n",
			want:  []string{`t.yaml:5:1: status: unknown field; expected one of apiVersion, kind, metadata, spec`},
		},
		{
			name:  "wrong apiVersion, kind and name; duplicate field",
			input: "apiVersion: v2\nkind: Scenaro\nmetadata: {name: \"My Scenario\"}\nspec: {duration: 1m, duration: 2m}\n",
			want: []string{
				`t.yaml:1:13: apiVersion: expected "kubeloom.dev/v1", got "v2"`,
				`t.yaml:2:7: kind: expected "Scenario", got "Scenaro"`,
				`t.yaml:3:18: metadata.name: expected a name of lower-case letters, digits and '-', at most 63 characters, such as informer-basics, got "My Scenario"`,
				`t.yaml:4:22: spec.duration: duplicate field (first set at line 4, column 8); a field may appear only once`,
			},
		},
		{
			name:  "metadata without name",
			input: "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {description: 5, title: x}\nspec: {duration: 1s}\n",
			want: []string{
				`t.yaml:3:11: metadata.name: required field is missing; expected a name of lower-case letters, digits and '-', at most 63 characters, such as informer-basics`,
				`t.yaml:3:25: metadata.description: expected a string, got 5`,
				`t.yaml:3:28: metadata.title: unknown field; expected one of name, description, watchFor, zh`,
			},
		},
		{
			name:  "watchFor and zh",
			input: "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata:\n  name: x\n  watchFor: one\n  zh:\n    watchFor: [ok, 3, \"\"]\n    summary: x\nspec: {duration: 1s}\n",
			want: []string{
				`t.yaml:5:13: metadata.watchFor: expected a list of sentences, each a thing to look at in the recording, got "one"`,
				`t.yaml:7:20: metadata.zh.watchFor[1]: expected a non-empty sentence, a thing to look at in the recording, got 3`,
				`t.yaml:7:23: metadata.zh.watchFor[2]: expected a non-empty sentence, a thing to look at in the recording, got ""`,
				`t.yaml:8:5: metadata.zh.summary: unknown field; expected one of description, watchFor`,
			},
		},
		{
			name:  "unknown spec field",
			input: head + "spec:\n  duraton: 30s\n",
			want: []string{
				`t.yaml:5:3: spec.duraton: unknown field; expected one of duration, speed, seed, era, eras, apiServer, controllerManager, kubelets, informers, objects, actions`,
				`t.yaml:5:3: spec.duration: required field is missing; expected a duration > 0 and ≤ 24h, such as 30s or 10m`,
			},
		},
		{
			name:  "null spec",
			input: head + "spec: ~\n",
			want:  []string{`t.yaml:4:7: spec.duration: required field is missing; expected a duration > 0 and ≤ 24h, such as 30s or 10m`},
		},
		{
			name:  "duration without unit",
			input: head + "spec:\n  duration: 30\n",
			want:  []string{`t.yaml:5:13: spec.duration: expected a duration > 0 and ≤ 24h, such as 30s or 10m, got 30; add a unit, e.g. 30s`},
		},
		{
			name:  "negative duration",
			input: head + "spec:\n  duration: -5s\n",
			want:  []string{`t.yaml:5:13: spec.duration: expected a duration > 0 and ≤ 24h, such as 30s or 10m, got "-5s"`},
		},
		{
			name:  "zero duration",
			input: head + "spec:\n  duration: 0s\n",
			want:  []string{`t.yaml:5:13: spec.duration: expected a duration > 0 and ≤ 24h, such as 30s or 10m, got "0s"`},
		},
		{
			name:  "duration too long",
			input: head + "spec:\n  duration: 25h\n",
			want:  []string{`t.yaml:5:13: spec.duration: expected a duration > 0 and ≤ 24h, such as 30s or 10m, got "25h"`},
		},
		{
			name:  "not a duration",
			input: head + "spec:\n  duration: soon\n",
			want:  []string{`t.yaml:5:13: spec.duration: expected a duration > 0 and ≤ 24h, such as 30s or 10m, got "soon"`},
		},
		{
			name:  "wrong scalar types",
			input: specWith("speed: 0", "seed: abc", "era: new"),
			want: []string{
				`t.yaml:6:10: spec.speed: expected a number > 0 and ≤ 10000 (simulated seconds per real second), got 0`,
				`t.yaml:7:9: spec.seed: expected an integer, got "abc"`,
				`t.yaml:8:8: spec.era: expected classic or modern, got "new"`,
			},
		},
		{
			name:  "speed too high and not finite",
			input: specWith("speed: 10001", "seed: 1.5"),
			want: []string{
				`t.yaml:6:10: spec.speed: expected a number > 0 and ≤ 10000 (simulated seconds per real second), got 10001`,
				`t.yaml:7:9: spec.seed: expected an integer, got 1.5`,
			},
		},
		{
			name:  "era and eras together",
			input: specWith("era: classic", "eras: [classic, modern]"),
			want:  []string{`t.yaml:7:3: spec.eras: cannot be used together with spec.era; set era for one run, or eras to run the scenario once per era`},
		},
		{
			name:  "eras repeats an era",
			input: specWith("eras: [classic, classic]"),
			want:  []string{`t.yaml:6:19: spec.eras[1]: era classic is listed twice; each era runs once`},
		},
		{
			name:  "eras with one era",
			input: specWith("eras: [modern]"),
			want:  []string{`t.yaml:6:9: spec.eras: expected at least two distinct eras, such as [classic, modern], got only modern; for one era, write era: modern`},
		},
		{
			name:  "eras not a list",
			input: specWith("eras: classic"),
			want:  []string{`t.yaml:6:9: spec.eras: expected a list of at least two distinct eras, such as [classic, modern] (for one era, use era), got "classic"`},
		},
		{
			name:  "anchors, aliases, tags, merge keys, complex keys",
			input: head + "spec:\n  duration: &d 30s\n  speed: *d\n  seed: !!int 3\n  <<: {era: classic}\n  ? era\n  : modern\n",
			want: []string{
				`t.yaml:5:13: spec.duration: YAML anchors (&d) are not supported in scenario files; write the value out in full`,
				`t.yaml:6:10: spec.speed: YAML aliases (*d) are not supported in scenario files; write the value out in full`,
				`t.yaml:7:9: spec.seed: YAML tags (!!int) are not supported in scenario files; quote a value to make it a string`,
				`t.yaml:8:3: spec: YAML merge keys (<<) are not supported in scenario files; write the fields out in full`,
				`t.yaml:9:3: spec: complex YAML keys (? key) are not supported in scenario files; write key: value`,
			},
		},
		{
			name: "controllerManager and kubelets values",
			input: specWith(
				"controllerManager:",
				"  replicas: 0",
				"  leaderElect: yes",
				"  controllers: []",
				`  flags: {"--concurrent-endpoint-syncs": 5, bad: 1, "--leader-elect": "true"}`,
				"  extra: 1",
				"kubelets: {count: 2, manifestDir: 3, manifestURL: \"true\"}",
			),
			want: []string{
				`t.yaml:7:15: spec.controllerManager.replicas: expected an integer ≥ 1 and ≤ 10, got 0`,
				`t.yaml:8:18: spec.controllerManager.leaderElect: expected true or false, got "yes"`,
				`t.yaml:9:18: spec.controllerManager.controllers: expected a list of controller names, such as ["*"], ["*", "-garbagecollector"] or [endpoint, replicationcontroller], got an empty list`,
				`t.yaml:10:47: spec.controllerManager.flags: expected a flag name such as --concurrent-endpoint-syncs, got "bad"`,
				`t.yaml:10:55: spec.controllerManager.flags.--leader-elect: set this with spec.controllerManager.leaderElect`,
				`t.yaml:11:5: spec.controllerManager.extra: unknown field; expected one of replicas, leaderElect, controllers, flags`,
				`t.yaml:12:37: spec.kubelets.manifestDir: expected a directory path, such as manifests/, got 3`,
				`t.yaml:12:53: spec.kubelets.manifestURL: expected true or false, got "true"`,
			},
		},
		{
			name:  "bad controller names",
			input: specWith(`controllerManager: {controllers: ["*", "-", Endpoint, 5]}`),
			want: []string{
				`t.yaml:6:42: spec.controllerManager.controllers[1]: expected "*", a controller name, or -name to disable one, got "-"`,
				`t.yaml:6:47: spec.controllerManager.controllers[2]: expected "*", a controller name, or -name to disable one, got "Endpoint"`,
				`t.yaml:6:57: spec.controllerManager.controllers[3]: expected "*", a controller name, or -name to disable one, got 5`,
			},
		},
		{
			name:  "flag spellings",
			input: specWith(`controllerManager: {flags: {"--concurrent_rc_syncs": 3, "--concurrent-rc-syncs": 4, "--leader_elect": "false"}}`),
			want: []string{
				`t.yaml:6:59: spec.controllerManager.flags.--concurrent-rc-syncs: duplicate flag (first set at line 6, column 31); a flag may appear only once`,
				`t.yaml:6:87: spec.controllerManager.flags.--leader_elect: set this with spec.controllerManager.leaderElect`,
			},
		},
		{
			name: "apiServer values",
			input: specWith(
				"apiServer:",
				`  runtimeConfig: {"batch/v2alpha1": yes, "Batch": true, "v1": true, "v1": false}`,
				"  admission: []",
			),
			want: []string{
				`t.yaml:7:39: spec.apiServer.runtimeConfig.batch/v2alpha1: expected true or false, got "yes"`,
				`t.yaml:7:44: spec.apiServer.runtimeConfig: expected an API group/version such as batch/v2alpha1, or v1, got "Batch"`,
				`t.yaml:7:71: spec.apiServer.runtimeConfig.v1: duplicate group/version; each may appear only once`,
				`t.yaml:8:5: spec.apiServer.admission: unknown field; expected one of runtimeConfig`,
			},
		},
		{
			name:  "apiServer runtimeConfig not a mapping",
			input: specWith(`apiServer: {runtimeConfig: [batch/v2alpha1]}`),
			want:  []string{`t.yaml:6:30: spec.apiServer.runtimeConfig: expected a mapping of API group/versions to true or false, such as {"batch/v2alpha1": true}, got a list`},
		},
		{
			name: "informer values",
			input: specWith(
				"informers:",
				"  - {resource: pods, handlers: two}",
				"  - {resource: pod}",
				"  - {resource: Pods}",
				"  - {resource: podz}",
				"  - {resource: nodes, namespace: default}",
				"  - {resource: pods, resync: 5}",
				"  - {resource: pods, handlers: 0, extra: 1}",
				"  - {name: x}",
				"  - {resource: widgets}",
				"  - {resource: pods, namespace: Default}",
			),
			want: []string{
				`t.yaml:7:34: spec.informers[0].handlers: expected an integer ≥ 1 and ≤ 100, got "two"`,
				`t.yaml:8:18: spec.informers[1].resource: expected a plural lower-case resource name such as pods, nodes or deployments, got "pod"; did you mean pods?`,
				`t.yaml:9:18: spec.informers[2].resource: expected a plural lower-case resource name such as pods, nodes or deployments, got "Pods"; did you mean pods?`,
				`t.yaml:10:18: spec.informers[3].resource: expected a plural lower-case resource name such as pods, nodes or deployments, got "podz"; did you mean pods?`,
				`t.yaml:11:36: spec.informers[4].namespace: nodes are cluster-scoped, not in a namespace; remove the namespace or set it to ""`,
				`t.yaml:12:32: spec.informers[5].resync: expected a duration ≥ 0 and ≤ 24h, such as 0s (no resync) or 30s, got 5; add a unit, e.g. 5s`,
				`t.yaml:13:34: spec.informers[6].handlers: expected an integer ≥ 1 and ≤ 100, got 0`,
				`t.yaml:13:37: spec.informers[6].extra: unknown field; expected one of name, resource, namespace, handlers, resync, reflector`,
				`t.yaml:14:7: spec.informers[7].resource: required field is missing; expected a resource name such as pods`,
				`t.yaml:15:18: spec.informers[8].resource: expected a plural lower-case resource name such as pods, nodes or deployments, got "widgets"`,
				`t.yaml:16:35: spec.informers[9].namespace: expected a namespace name such as default, or "" for all namespaces, got "Default"`,
			},
		},
		{
			name: "informer reflector",
			input: specWith(
				"eras: [classic, modern]",
				"informers:",
				"  - {name: a, resource: pods, reflector: v1.4}",
				"  - {name: b, resource: pods, reflector: v1.3}",
				"  - {name: c, resource: pods, reflector: 1.5}",
			),
			want: []string{
				`t.yaml:8:44: spec.informers[0].reflector: reflector v1.4 runs only in the classic era, and this scenario runs in era modern (spec.era or spec.eras); run it in classic, or remove the reflector`,
				`t.yaml:9:44: spec.informers[1].reflector: expected v1.5 (the default) or v1.4 (before kubernetes#35672: every re-list leaks a resync goroutine), got "v1.3"; did you mean v1.5?`,
				`t.yaml:10:44: spec.informers[2].reflector: expected v1.5 (the default) or v1.4 (before kubernetes#35672: every re-list leaks a resync goroutine), got 1.5`,
			},
		},
		{
			name:  "informers not a list",
			input: specWith("informers: {resource: pods}", "objects: {}", "actions: [1]"),
			want: []string{
				`t.yaml:6:14: spec.informers: expected a list of informers, such as [{resource: pods}], got a mapping`,
				`t.yaml:7:12: spec.objects: expected a list of Kubernetes objects, each with apiVersion, kind and metadata, got an empty mapping`,
				`t.yaml:8:13: spec.actions[0]: expected an action: a mapping with at and one verb (create, update, delete, breakWatches, restartAPIServer, addHandler, hangHandler, killLeader, blockLeaderLock, stopKubelet, startKubelet, setImageFSUsage, injectOOM, takePort), got 1`,
			},
		},
		{
			name: "duplicate informer names",
			input: specWith(
				"informers:",
				"  - {resource: pods}",
				"  - {resource: pods}",
				"  - {name: pods, resource: nodes}",
				"  - {name: other, resource: pods}",
			),
			want: []string{
				`t.yaml:8:18: spec.informers[1].resource: two informers are named "pods" (the first is spec.informers[0]); give each a distinct name`,
				`t.yaml:9:14: spec.informers[2].name: two informers are named "pods" (the first is spec.informers[0]); give each a distinct name`,
			},
		},
		{
			name: "action structure",
			input: specWith(
				"actions:",
				"  - at: 40s",
				"    breakWatches: {resource: pods}",
				"  - at: 5s",
				"    create: {apiVersion: v1, kind: Pod, metadata: {name: a}}",
				"    delete: {kind: Pod, name: a}",
				"  - at: 6s",
				"  - breakWatches: {resource: pods}",
				"  - at: -1s",
				"    killLeader: {}",
				"    explode: true",
			),
			want: []string{
				`t.yaml:7:11: spec.actions[0].at: expected a time ≤ spec.duration (30s), got "40s"`,
				`t.yaml:11:7: spec.actions[1].delete: an action has exactly one verb and this one already has create; split it into two actions`,
				`t.yaml:12:7: spec.actions[2]: an action needs a verb; expected one of create, update, delete, breakWatches, restartAPIServer, addHandler, hangHandler, killLeader, blockLeaderLock, stopKubelet, startKubelet, setImageFSUsage, injectOOM, takePort`,
				`t.yaml:13:7: spec.actions[3].at: required field is missing; expected a time ≥ 0 since the start, such as 5s or 1m30s`,
				`t.yaml:14:11: spec.actions[4].at: expected a time ≥ 0 since the start, such as 5s or 1m30s, got "-1s"`,
				`t.yaml:15:7: spec.actions[4].killLeader: needs spec.controllerManager: there is no controller-manager whose leader could stop`,
				`t.yaml:16:7: spec.actions[4].explode: unknown field; expected one of at, create, update, delete, breakWatches, restartAPIServer, addHandler, hangHandler, killLeader, blockLeaderLock, stopKubelet, startKubelet, setImageFSUsage, injectOOM, takePort`,
			},
		},
		{
			name: "actions need their component",
			input: specWith(
				"actions:",
				"  - at: 7s",
				"    addHandler: {informer: pods}",
				"  - at: 9s",
				"    stopKubelet: {node: node-1}",
				"  - at: 10s",
				"    setImageFSUsage: {node: node-1, percent: 101}",
			),
			want: []string{
				`t.yaml:8:30: spec.actions[0].addHandler.informer: no informer is named "pods": spec.informers is empty; add an informer for addHandler to act on`,
				`t.yaml:10:7: spec.actions[1].stopKubelet: needs spec.kubelets: there is no kubelet on any node`,
				`t.yaml:12:48: spec.actions[2].setImageFSUsage.percent: expected an integer percentage from 0 to 100, got 101`,
			},
		},
		{
			name: "actions name a missing node, informer or leader",
			input: specWith(
				"controllerManager: {leaderElect: false}",
				"kubelets: {count: 2}",
				"informers: [{resource: pods}, {name: other, resource: pods}]",
				"actions:",
				"  - at: 1s",
				"    stopKubelet: {node: node-3}",
				"  - at: 1s",
				"    setImageFSUsage: {node: worker, percent: 50}",
				"  - at: 1s",
				"    killLeader:",
				"  - at: 1s",
				"    addHandler: {informer: podz}",
				"  - at: 1s",
				"    killLeader: {x: 1}",
				"  - at: 1s",
				"    blockLeaderLock: {for: -5s, y: 2}",
			),
			want: []string{
				`t.yaml:11:27: spec.actions[0].stopKubelet.node: expected a node from node-1 to node-2 (spec.kubelets.count is 2), got "node-3"`,
				`t.yaml:13:31: spec.actions[1].setImageFSUsage.node: expected a node from node-1 to node-2 (spec.kubelets.count is 2), got "worker"`,
				`t.yaml:15:7: spec.actions[2].killLeader: needs spec.controllerManager.leaderElect: true; without leader election there is no leader`,
				`t.yaml:17:30: spec.actions[3].addHandler.informer: expected the name of an informer in spec.informers (pods, other), got "podz"`,
				`t.yaml:19:7: spec.actions[4].killLeader: needs spec.controllerManager.leaderElect: true; without leader election there is no leader`,
				`t.yaml:19:20: spec.actions[4].killLeader.x: unknown field; expected no fields: write {}`,
				`t.yaml:21:30: spec.actions[5].blockLeaderLock.for: expected a duration ≥ 0 and ≤ 24h for which the lock is refused, such as 30s (0s: until the scenario ends), got "-5s"`,
				`t.yaml:21:35: spec.actions[5].blockLeaderLock.y: unknown field; expected one of for`,
			},
		},
		{
			name: "restartAPIServer has no fields",
			input: specWith(
				"kubelets: {}",
				"actions:",
				"  - at: 1s",
				"    restartAPIServer:",
				"  - at: 2s",
				"    restartAPIServer: {all: true}",
				"  - at: 3s",
				"    restartAPIServer: now",
			),
			want: []string{
				`t.yaml:11:26: spec.actions[1].restartAPIServer.all: unknown field; expected no fields: write {}`,
				`t.yaml:13:25: spec.actions[2].restartAPIServer: expected {} (restartAPIServer has no fields), got "now"`,
			},
		},
		{
			name: "verb arguments",
			input: specWith(
				"kubelets: {}",
				"actions:",
				"  - at: 1s",
				"    create: 5",
				"  - at: 2s",
				"    delete: {apiVersion: 5, kind: [], name: {}}",
				"  - at: 3s",
				"    breakWatches: {}",
				"  - at: 4s",
				"    breakWatches: {resource: pod}",
				"  - at: 5s",
				"    setImageFSUsage: {node: node-1}",
				"  - at: 6s",
				"    delete: {kind: Node, namespace: x, name: n}",
				"  - at: 7s",
				"    delete: {kind: Pod}",
				"  - at: 8s",
				"    stopKubelet: {node: \"\"}",
			),
			want: []string{
				`t.yaml:9:15: spec.actions[0].create: expected a Kubernetes object: a mapping with apiVersion, kind, metadata and the kind's fields, got 5`,
				`t.yaml:11:28: spec.actions[1].delete.apiVersion: expected an API version such as v1 or apps/v1, got 5`,
				`t.yaml:11:37: spec.actions[1].delete.kind: expected a kind such as Pod or Deployment, got an empty list`,
				`t.yaml:11:47: spec.actions[1].delete.name: expected the object's name, got an empty mapping`,
				`t.yaml:13:21: spec.actions[2].breakWatches.resource: required field is missing; expected a resource name such as pods`,
				`t.yaml:15:32: spec.actions[3].breakWatches.resource: expected a plural lower-case resource name such as pods, nodes or deployments, got "pod"; did you mean pods?`,
				`t.yaml:17:24: spec.actions[4].setImageFSUsage.percent: required field is missing; expected an integer percentage from 0 to 100`,
				`t.yaml:19:39: spec.actions[5].delete.namespace: nodes are cluster-scoped, not in a namespace; remove the namespace`,
				`t.yaml:21:15: spec.actions[6].delete.name: required field is missing; expected the object's name`,
				`t.yaml:23:27: spec.actions[7].stopKubelet.node: expected a node name such as node-1, got ""`,
			},
		},
		{
			name: "kubelet verbs need kubelets",
			input: specWith(
				"actions:",
				"  - {at: 1s, startKubelet: {node: node-1}}",
				"  - {at: 2s, injectOOM: {node: node-1}}",
				"  - {at: 3s, takePort: {node: node-1}}",
			),
			want: []string{
				`t.yaml:7:16: spec.actions[0].startKubelet: needs spec.kubelets: there is no kubelet on any node`,
				`t.yaml:8:16: spec.actions[1].injectOOM: needs spec.kubelets: there is no kubelet on any node`,
				`t.yaml:9:16: spec.actions[2].takePort: needs spec.kubelets: there is no kubelet on any node`,
			},
		},
		{
			name: "startKubelet arguments",
			input: specWith(
				"kubelets: {count: 2}",
				"actions:",
				"  - {at: 1s, startKubelet: {}}",
				"  - {at: 2s, startKubelet: {node: node-3}}",
				"  - {at: 3s, startKubelet: {node: node-1, pod: web-0}}",
				"  - {at: 4s, startKubelet: node-1}",
				"  - {at: 5s, startKubelet: {node: 1}}",
			),
			want: []string{
				`t.yaml:8:30: spec.actions[0].startKubelet.node: required field is missing; expected a node name such as node-1`,
				`t.yaml:9:37: spec.actions[1].startKubelet.node: expected a node from node-1 to node-2 (spec.kubelets.count is 2), got "node-3"`,
				`t.yaml:10:45: spec.actions[2].startKubelet.pod: unknown field; expected one of node`,
				`t.yaml:11:30: spec.actions[3].startKubelet: expected a mapping with the node whose kubelet starts again, such as {node: node-1}, got "node-1"`,
				`t.yaml:12:37: spec.actions[4].startKubelet.node: expected a node name such as node-1, got 1`,
			},
		},
		{
			name: "injectOOM arguments",
			input: specWith(
				"kubelets: {count: 2}",
				"actions:",
				"  - {at: 1s, injectOOM: {node: node-1, container: web}}",
				"  - {at: 2s, injectOOM: {node: node-1, pod: a/b/c}}",
				"  - {at: 3s, injectOOM: {node: node-1, pod: Web-0}}",
				"  - {at: 4s, injectOOM: {node: node-1, pod: /web-0}}",
				"  - {at: 5s, injectOOM: {node: node-1, pod: kube.system/web-0}}",
				"  - {at: 6s, injectOOM: {node: node-1, pod: default/web-0, container: Web}}",
				"  - {at: 7s, injectOOM: {node: node-1, pod: 5}}",
				"  - {at: 8s, injectOOM: {pod: web-0}}",
				"  - {at: 9s, injectOOM: {node: worker, pod: web-0, container: web, signal: 9}}",
				`  - {at: 10s, injectOOM: {node: node-1, pod: ""}}`,
				"  - {at: 11s, injectOOM: {node: node-1, pod: ~, container: web}}",
				"  - {at: 12s, injectOOM: {node: node-1, pod: web-0, container: [web]}}",
				"  - {at: 13s, injectOOM: [node-1]}",
			),
			want: []string{
				`t.yaml:8:42: spec.actions[0].injectOOM.container: only allowed together with pod: name the pod whose container the OOM killer kills, such as pod: default/web-0; without pod, injectOOM kills a process outside any pod (a system OOM)`,
				`t.yaml:9:47: spec.actions[1].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got "a/b/c"`,
				`t.yaml:10:47: spec.actions[2].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got "Web-0"`,
				`t.yaml:11:47: spec.actions[3].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got "/web-0"`,
				`t.yaml:12:47: spec.actions[4].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got "kube.system/web-0"`,
				`t.yaml:13:73: spec.actions[5].injectOOM.container: expected a container name of lower-case letters, digits and '-', such as web, got "Web"`,
				`t.yaml:14:47: spec.actions[6].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got 5`,
				`t.yaml:15:27: spec.actions[7].injectOOM.node: required field is missing; expected a node name such as node-1`,
				`t.yaml:16:34: spec.actions[8].injectOOM.node: expected a node from node-1 to node-2 (spec.kubelets.count is 2), got "worker"`,
				`t.yaml:16:70: spec.actions[8].injectOOM.signal: unknown field; expected one of node, pod, container`,
				`t.yaml:17:48: spec.actions[9].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got ""`,
				`t.yaml:18:48: spec.actions[10].injectOOM.pod: expected a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1, got null`,
				`t.yaml:19:66: spec.actions[11].injectOOM.container: expected a container name of lower-case letters, digits and '-', such as web, got a list`,
				`t.yaml:20:28: spec.actions[12].injectOOM: expected a mapping with node, and optionally pod and container, such as {node: node-1} or {node: node-1, pod: default/web-0, container: web}, got a list`,
			},
		},
		{
			name: "takePort arguments",
			input: specWith(
				"kubelets: {count: 2}",
				"actions:",
				"  - {at: 1s, takePort: {node: node-1, server: helthz}}",
				"  - {at: 2s, takePort: {node: node-1, server: readOnly}}",
				"  - {at: 3s, takePort: {node: node-1, server: api}}",
				"  - {at: 4s, takePort: {node: node-1, server: 10248}}",
				"  - {at: 5s, takePort: {node: node-1, for: 30}}",
				"  - {at: 6s, takePort: {node: node-1, for: -5s}}",
				"  - {at: 7s, takePort: {node: node-1, for: 25h}}",
				"  - {at: 8s, takePort: {node: node-3, port: 10248}}",
				"  - {at: 9s, takePort: {server: healthz, for: 5s}}",
				"  - {at: 10s, takePort: {node: node-1, for: soon}}",
				"  - {at: 11s, takePort: {node: node-1, server: ~}}",
			),
			want: []string{
				`t.yaml:8:49: spec.actions[0].takePort.server: expected healthz, server or readonly (the kubelet's healthz, main or read-only server), got "helthz"; did you mean healthz?`,
				`t.yaml:9:49: spec.actions[1].takePort.server: expected healthz, server or readonly (the kubelet's healthz, main or read-only server), got "readOnly"; did you mean readonly?`,
				`t.yaml:10:49: spec.actions[2].takePort.server: expected healthz, server or readonly (the kubelet's healthz, main or read-only server), got "api"`,
				`t.yaml:11:49: spec.actions[3].takePort.server: expected healthz, server or readonly (the kubelet's healthz, main or read-only server), got 10248`,
				`t.yaml:12:46: spec.actions[4].takePort.for: expected a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends), got 30; add a unit, e.g. 30s`,
				`t.yaml:13:46: spec.actions[5].takePort.for: expected a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends), got "-5s"`,
				`t.yaml:14:46: spec.actions[6].takePort.for: expected a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends), got "25h"`,
				`t.yaml:15:33: spec.actions[7].takePort.node: expected a node from node-1 to node-2 (spec.kubelets.count is 2), got "node-3"`,
				`t.yaml:15:41: spec.actions[7].takePort.port: unknown field; expected one of node, server, for`,
				`t.yaml:16:26: spec.actions[8].takePort.node: required field is missing; expected a node name such as node-1`,
				`t.yaml:17:47: spec.actions[9].takePort.for: expected a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends), got "soon"`,
				`t.yaml:18:50: spec.actions[10].takePort.server: expected healthz, server or readonly (the kubelet's healthz, main or read-only server), got null`,
			},
		},
		{
			name: "objects: kinds and versions",
			input: specWith(
				"objects:",
				"  - {apiVersion: v1, kind: Pods, metadata: {name: x}}",
				"  - {apiVersion: app/v1, kind: Deployment, metadata: {name: x}}",
				"  - {apiVersion: v1, kind: Deployment, metadata: {name: x}}",
				"  - {apiVersion: apps/v1beta1, kind: Deployment, metadata: {name: x}}",
				"  - {apiVersion: v1, kind: PodList}",
				"  - {apiVersion: v1, kind: Foo, metadata: {name: x}}",
				"  - {apiVersion: policy/v1, kind: Eviction, metadata: {name: x}}",
				"  - {apiVersion: bogus.example.com/v9, kind: Widget}",
				"  - {apiVersion: batch/v1, kind: Jobb, metadata: {name: x}}",
				"  - {kind: Pod, metadata: {name: x}}",
				"  - {metadata: {name: x}}",
			),
			want: []string{
				`t.yaml:7:30: spec.objects[0].kind: unknown kind "Pods" in v1; did you mean Pod?`,
				`t.yaml:8:20: spec.objects[1].apiVersion: unknown apiVersion "app/v1"; Deployment is in apps/v1`,
				`t.yaml:9:30: spec.objects[2].kind: Deployment is not in v1; use apiVersion: apps/v1`,
				`t.yaml:10:20: spec.objects[3].apiVersion: apps/v1beta1 is an older version of Deployment; use apiVersion: apps/v1`,
				`t.yaml:11:30: spec.objects[4].kind: PodList is a list; write each Pod as an object of its own`,
				`t.yaml:12:30: spec.objects[5].kind: unknown kind "Foo" in v1; expected one of ComponentStatus, ConfigMap, Endpoints, Event, LimitRange, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod, PodTemplate, ReplicationController, ResourceQuota, Secret, Service, ServiceAccount`,
				`t.yaml:13:37: spec.objects[6].kind: Eviction cannot be stored in the apiserver (it is a request or a subresource, not an object); expected a kind such as Pod`,
				`t.yaml:14:20: spec.objects[7].apiVersion: unknown apiVersion "bogus.example.com/v9"; expected an API version such as v1, apps/v1 or batch/v1`,
				`t.yaml:15:36: spec.objects[8].kind: unknown kind "Jobb" in batch/v1; did you mean Job?`,
				`t.yaml:16:7: spec.objects[9].apiVersion: required field is missing; expected an API version such as v1 or apps/v1`,
				`t.yaml:17:7: spec.objects[10].apiVersion: required field is missing; expected an API version such as v1 or apps/v1`,
				`t.yaml:17:7: spec.objects[10].kind: required field is missing; expected a kind such as Pod or Deployment`,
			},
		},
		{
			name: "objects: strict decoding",
			input: specWith(
				"objects:",
				"  - apiVersion: v1",
				"    kind: Pod",
				"    metadata: {name: web-0}",
				"    spec:",
				"      containers:",
				"        - name: web",
				"          imagee: nginx",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p3}, spc: {}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: {name: x}}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p4}, spec: {containers: [{name: x, ports: [{containerPort: \"80\"}]}]}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p5, labels: {a: 1}}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p2}, spec: {containers: [{name: x, resources: {limits: {cpu: 100mi}}}]}}",
				"  - {apiVersion: v1, kind: Secret, metadata: {name: s}, data: {x: \"not base64!\"}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p6}, spec: {activeDeadlineSeconds: .inf}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p7, creationTimestamp: yesterday}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p8}, spec: {nodeNam: node-1}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p9}, spec: {containers: [{name: a, name: b}]}}",
			),
			want: []string{
				`t.yaml:13:13: spec.objects[0].spec.containers[0].imagee: unknown field; did you mean image? (kubectl explain pods.spec.containers lists every field)`,
				`t.yaml:14:57: spec.objects[1].spc: unknown field; expected one of apiVersion, kind, metadata, spec, status`,
				`t.yaml:15:75: spec.objects[2].spec.containers: expected a list, got a mapping`,
				`t.yaml:16:111: spec.objects[3].spec.containers[0].ports[0].containerPort: expected an integer that fits int32, got "80"`,
				`t.yaml:17:68: spec.objects[4].metadata.labels.a: expected a string, got 1`,
				`t.yaml:18:113: spec.objects[5].spec.containers[0].resources.limits.cpu: invalid value "100mi": unable to parse quantity's suffix`,
				`t.yaml:19:69: spec.objects[6].data.x: invalid value "not base64!": illegal base64 data at input byte 3`,
				`t.yaml:20:87: spec.objects[7].spec.activeDeadlineSeconds: expected a finite number, got .inf; quote it if it is text`,
				`t.yaml:21:75: spec.objects[8].metadata.creationTimestamp: invalid value "yesterday": parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
				`t.yaml:22:64: spec.objects[9].spec.nodeNam: unknown field; did you mean nodeName? (kubectl explain pods.spec lists every field)`,
				`t.yaml:23:87: spec.objects[10].spec.containers[0].name: duplicate field (first set at line 23, column 78); a field may appear only once`,
			},
		},
		{
			name: "objects: names and namespaces",
			input: specWith(
				"objects:",
				"  - {apiVersion: v1, kind: Pod, metadata: {namespace: default}}",
				"  - {apiVersion: v1, kind: Node, metadata: {name: n, namespace: default}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {generateName: web-}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: \"a/b\"}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: ok, namespace: Bad_NS}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: web-0}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: default}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: other}}",
				"  - {apiVersion: v1, kind: Pod}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: \"\"}}",
			),
			want: []string{
				`t.yaml:7:45: spec.objects[0].metadata.name: required field is missing; every object needs a name`,
				`t.yaml:8:67: spec.objects[1].metadata.namespace: nodes are cluster-scoped, not in a namespace; remove metadata.namespace`,
				`t.yaml:9:60: spec.objects[2].metadata.generateName: not supported in a scenario: set metadata.name, so that actions, traces and you can name the object`,
				`t.yaml:10:52: spec.objects[3].metadata.name: expected a Pod name (a DNS subdomain, such as web-0), got "a/b": ` + subdomainMsg,
				`t.yaml:11:67: spec.objects[4].metadata.namespace: expected a namespace name of lower-case letters, digits and '-', got "Bad_NS"`,
				`t.yaml:13:7: spec.objects[6]: Pod default/web-0 is already defined by spec.objects[5]; each object is preloaded once`,
				`t.yaml:15:7: spec.objects[8].metadata.name: required field is missing; every object needs a name`,
				`t.yaml:16:52: spec.objects[9].metadata.name: expected a name; every object needs one, got ""`,
			},
		},
		{
			// As the apiserver validates them (issue 30): a name that would put a terminal's
			// escape sequence in every view of the recording, or a label that is HTML, is refused.
			name: "objects: names, labels and annotations as the apiserver checks them",
			input: specWith(
				"objects:",
				`  - {apiVersion: v1, kind: Pod, metadata: {name: "web\e]52;c;aGk=\a"}}`,
				"  - {apiVersion: v1, kind: Pod, metadata: {name: Web_0}}",
				"  - {apiVersion: v1, kind: Service, metadata: {name: 1web}}",
				"  - {apiVersion: v1, kind: Namespace, metadata: {name: a.b}}",
				"  - {apiVersion: v1, kind: Node, metadata: {name: node-1.example.com}}",
				`  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: "system:a\x9b2J"}}`,
				"  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: \"system:controller:job-controller\"}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p1, labels: {\"<img src=x onerror=alert(1)>\": x, app: \"<img src=x onerror=alert(1)>\"}}}",
				"  - {apiVersion: v1, kind: Pod, metadata: {name: p2, annotations: {\"a b\": x, example.com/Note: \"<b>any text</b>\"}}}",
				"  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {template: {metadata: {labels: {app: \"\\e[2J\"}}}}}",
			),
			want: []string{
				`t.yaml:7:52: spec.objects[0].metadata.name: expected a Pod name (a DNS subdomain, such as web-0), got "web\x1b]52;c;aGk=\a": ` + subdomainMsg,
				`t.yaml:8:52: spec.objects[1].metadata.name: expected a Pod name (a DNS subdomain, such as web-0), got "Web_0": ` + subdomainMsg,
				`t.yaml:9:56: spec.objects[2].metadata.name: expected a Service name (a DNS-1035 label, such as web), got "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
				`t.yaml:10:58: spec.objects[3].metadata.name: expected a Namespace name (a DNS label, such as kube-system), got "a.b": must not contain dots`,
				`t.yaml:12:86: spec.objects[5].metadata.name: expected a ClusterRole name (a path segment of printing characters, such as system:controller:job-controller), got "system:a\u009b2J": may not contain '\u009b', a character that does not print`,
				`t.yaml:14:65: spec.objects[7].metadata.labels: expected ` + labelKeyWant + `, got "<img src=x onerror=alert(1)>": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`t.yaml:14:105: spec.objects[7].metadata.labels: label "app": expected ` + labelValueWant + `, got "<img src=x onerror=alert(1)>": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`t.yaml:15:70: spec.objects[8].metadata.annotations: expected ` + annotationWant + `, got "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`t.yaml:16:111: spec.objects[9].spec.template.metadata.labels: label "app": expected ` + labelValueWant + `, got "\x1b[2J": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			},
		},
		{
			name: "delete names its object by the rules of the object's kind",
			input: specWith(
				"informers: [{resource: pods}]",
				"actions:",
				"  - at: 1s",
				`    delete: {kind: Pod, name: "web\e[2J"}`,
				"  - at: 2s",
				`    delete: {kind: Pod, namespace: "Bad NS", name: web}`,
				"  - at: 3s",
				"    delete: {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: \"system:controller:x\"}",
				"  - at: 4s",
				"    delete: {kind: Service, name: web.1}",
			),
			want: []string{
				`t.yaml:9:33: spec.actions[0].delete.name: expected a Pod name (a DNS subdomain, such as web-0), got "web\x1b[2J": ` + subdomainMsg,
				`t.yaml:11:38: spec.actions[1].delete.namespace: expected a namespace name such as default, got "Bad NS"`,
				`t.yaml:15:37: spec.actions[3].delete.name: expected a Service name (a DNS-1035 label, such as web), got "web.1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			},
		},
		{
			name: "objects inside actions report their action's path",
			input: specWith(
				"actions:",
				"  - at: 1s",
				"    update:",
				"      apiVersion: v1",
				"      kind: Pod",
				"      metadata: {name: web-1}",
				"      spec: {containers: [{name: web, image: nginx, imagePullPolicy: [Always]}]}",
			),
			want: []string{`t.yaml:12:72: spec.actions[0].update.spec.containers[0].imagePullPolicy: expected a string, got a list`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(tt.input))
			if err == nil {
				t.Fatalf("Parse succeeded (%+v); want errors:\n%s", s.Spec, strings.Join(tt.want, "\n"))
			}
			if s != nil {
				t.Errorf("Parse returned a scenario and an error")
			}
			got := strings.Split(err.Error(), "\n")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors differ\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var first *Error
			if !errors.As(err, &first) {
				t.Fatalf("errors.As(*Error) failed for %T", err)
			}
			if first.Error() != got[0] {
				t.Errorf("first *Error = %q, want %q", first.Error(), got[0])
			}
			if first.Pos.File != "t.yaml" || first.Pos.Line == 0 || first.Pos.Column == 0 {
				t.Errorf("first error has no position: %+v", first.Pos)
			}
		})
	}
}

// TestParseMetadataText: metadata.watchFor and metadata.zh, and
// Metadata.Text's fallback to English field by field.
func TestParseMetadataText(t *testing.T) {
	s, err := Parse("t.yaml", []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata:
  name: x
  description: One informer.
  watchFor:
    - the reflector lists once
    - then it watches
  zh:
    watchFor: [反射器先 LIST 一次]
spec: {duration: 1s}
`))
	if err != nil {
		t.Fatal(err)
	}
	en, zh := s.Metadata.Text("en"), s.Metadata.Text("zh")
	if en.Description != "One informer." || len(en.WatchFor) != 2 || en.WatchFor[1] != "then it watches" {
		t.Errorf("English: %+v", en)
	}
	if zh.Description != "One informer." || len(zh.WatchFor) != 1 || zh.WatchFor[0] != "反射器先 LIST 一次" {
		t.Errorf("Chinese (description falls back to English): %+v", zh)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("back.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Metadata, s.Metadata) {
		t.Errorf("Marshal lost metadata: %+v, want %+v", back.Metadata, s.Metadata)
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := Parse("min.yaml", []byte(head+"spec: {duration: 1m}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sp := s.Spec
	if sp.Duration != time.Minute || sp.Speed != 1 || sp.Seed != 1 || sp.Era != EraClassic || sp.Eras != nil {
		t.Errorf("defaults: got duration %v speed %v seed %v era %q eras %v", sp.Duration, sp.Speed, sp.Seed, sp.Era, sp.Eras)
	}
	if sp.ControllerManager != nil || sp.Kubelets != nil || sp.Informers != nil || sp.Objects != nil || sp.Actions != nil {
		t.Errorf("components should be absent: %+v", sp)
	}
	if got := sp.RunEras(); len(got) != 1 || got[0] != EraClassic {
		t.Errorf("RunEras() = %v, want [classic]", got)
	}
	if s.Source != "min.yaml" || s.APIVersion != APIVersion || s.Kind != Kind || s.Metadata.Name != "t" {
		t.Errorf("scenario header: %+v", s)
	}
}

func TestParseComponentDefaults(t *testing.T) {
	s, err := Parse("t.yaml", []byte(specWith(
		"controllerManager: {}",
		"kubelets: {}",
		"informers: [{resource: nodes}]",
		"actions:",
		"  - {at: 0, killLeader: {}}",
		"  - {at: 30s, stopKubelet: {node: node-1}}",
	)))
	if err != nil {
		t.Fatal(err)
	}
	cm := s.Spec.ControllerManager
	if cm == nil || cm.Replicas != 1 || !cm.LeaderElect || len(cm.Controllers) != 1 || cm.Controllers[0] != "*" || len(cm.Flags) != 0 {
		t.Errorf("controllerManager defaults: %+v", cm)
	}
	k := s.Spec.Kubelets
	if k == nil || k.Count != 1 || k.ManifestDir != "" || k.ManifestURL {
		t.Errorf("kubelets defaults: %+v", k)
	}
	if got := k.NodeNames(); len(got) != 1 || got[0] != "node-1" {
		t.Errorf("NodeNames() = %v", got)
	}
	inf := s.Spec.Informers[0]
	if inf.Name != "nodes" || inf.Resource.Name != "nodes" || inf.Resource.Namespaced || inf.Handlers != 1 || inf.Resync != 0 || inf.Namespace != "" || inf.Reflector != ReflectorV15 {
		t.Errorf("informer defaults: %+v", inf)
	}
}

func TestParseEras(t *testing.T) {
	s, err := Parse("t.yaml", []byte(specWith("eras: [modern, classic]")))
	if err != nil {
		t.Fatal(err)
	}
	if s.Spec.Era != "" {
		t.Errorf("Era = %q, want empty when eras is set", s.Spec.Era)
	}
	got := s.Spec.RunEras()
	if len(got) != 2 || got[0] != EraModern || got[1] != EraClassic {
		t.Errorf("RunEras() = %v, want [modern classic]", got)
	}
	got[0] = "changed"
	if s.Spec.Eras[0] != EraModern {
		t.Error("RunEras returned the spec's own slice")
	}
}

func TestParseActionsSortedStably(t *testing.T) {
	s, err := Parse("t.yaml", []byte(specWith(
		"controllerManager: {replicas: 2}",
		"kubelets: {count: 3}",
		"informers: [{resource: pods}]",
		"actions:",
		"  - {at: 20s, breakWatches: {resource: pods}}",
		"  - {at: 5s, delete: {kind: Pod, name: a}}",
		"  - {at: 20s, addHandler: {informer: pods}}",
		"  - {at: 0s, setImageFSUsage: {node: node-3, percent: 95}}",
		"  - {at: 20s, killLeader: {}}",
		"  - {at: 30s, stopKubelet: {node: node-2}}",
	)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range s.Spec.Actions {
		got = append(got, a.At.String()+" "+a.Verb.Name())
	}
	want := "0s setImageFSUsage, 5s delete, 20s breakWatches, 20s addHandler, 20s killLeader, 30s stopKubelet"
	if strings.Join(got, ", ") != want {
		t.Errorf("actions = %s\nwant      %s", strings.Join(got, ", "), want)
	}
	del := s.Spec.Actions[1].Verb.(*Delete).Object
	if del.Namespace != "default" || del.Name != "a" || del.Resource.GVK.Kind != "Pod" || del.Key() != "default/a" {
		t.Errorf("delete defaults: %+v", del)
	}
	if p := s.Spec.Actions[0].Pos; p.Line != 13 || p.Column != 7 {
		t.Errorf("setImageFSUsage action position = %v, want line 13 column 7", p)
	}
}

// TestParseKubeletActions checks the valid forms of the kubelet verbs and the defaults they get.
func TestParseKubeletActions(t *testing.T) {
	tests := []struct {
		action string
		want   any // the verb's value
	}{
		{"startKubelet: {node: node-2}", &StartKubelet{Node: "node-2"}},
		{"injectOOM: {node: node-1}", &InjectOOM{Node: "node-1"}},
		{"injectOOM: {node: node-1, pod: web-0}", &InjectOOM{Node: "node-1", Namespace: "default", Pod: "web-0"}},
		{"injectOOM: {node: node-2, pod: default/web-0, container: web}", &InjectOOM{Node: "node-2", Namespace: "default", Pod: "web-0", Container: "web"}},
		{"injectOOM: {node: node-1, pod: kube-system/etcd.node-1}", &InjectOOM{Node: "node-1", Namespace: "kube-system", Pod: "etcd.node-1"}},
		{"takePort: {node: node-1}", &TakePort{Node: "node-1", Server: ServerHealthz}},
		{"takePort: {node: node-1, server: healthz, for: 30s}", &TakePort{Node: "node-1", Server: ServerHealthz, For: 30 * time.Second}},
		{"takePort: {node: node-2, server: server, for: 0}", &TakePort{Node: "node-2", Server: ServerKubelet}},
		{"takePort: {node: node-2, server: readonly, for: 1m30s}", &TakePort{Node: "node-2", Server: ServerReadOnly, For: 90 * time.Second}},
		{"takePort: {node: node-1, for: 24h}", &TakePort{Node: "node-1", Server: ServerHealthz, For: 24 * time.Hour}},
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(specWith("kubelets: {count: 2}", "actions:", "  - at: 10s", "    "+tt.action)))
			if err != nil {
				t.Fatal(err)
			}
			a := s.Spec.Actions[0]
			got := a.Verb
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %+v, want %+v", a.Verb.Name(), got, tt.want)
			}
			if a.At != 10*time.Second || a.Pos.Line != 8 || a.Pos.Column != 7 {
				t.Errorf("at %v, position %v; want 10s at line 8 column 7", a.At, a.Pos)
			}
		})
	}
}

func TestParseObjects(t *testing.T) {
	s, err := Parse("t.yaml", []byte(specWith(
		"objects:",
		"  - apiVersion: v1",
		"    kind: Pod",
		"    metadata: {name: web-0, labels: {app: web}}",
		"    spec:",
		"      containers:",
		"        - name: web",
		"          image: nginx:1.27",
		"          resources: {limits: {cpu: 100m, memory: 64Mi}}",
		"          ports: [{containerPort: 80}]",
		"  - {apiVersion: v1, kind: Node, metadata: {name: node-1}}",
		"  - apiVersion: apps/v1",
		"    kind: Deployment",
		"    metadata: {name: web, namespace: prod}",
		"    spec:",
		"      replicas: 2",
		"      selector: {matchLabels: {app: web}}",
		"      strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}",
		"      template:",
		"        metadata: {labels: {app: web}}",
		"        spec: {containers: [{name: web, image: nginx}]}",
		"  - apiVersion: v1",
		"    kind: ConfigMap",
		"    metadata: {name: script}",
		"    data:",
		"      run.sh: |",
		"        echo hello",
	)))
	if err != nil {
		t.Fatal(err)
	}
	objs := s.Spec.Objects
	if len(objs) != 4 {
		t.Fatalf("got %d objects", len(objs))
	}
	pod, ok := objs[0].Object.(*corev1.Pod)
	if !ok {
		t.Fatalf("objects[0] is %T, want *v1.Pod", objs[0].Object)
	}
	if pod.Namespace != "default" || pod.Labels["app"] != "web" || pod.Spec.Containers[0].Resources.Limits.Cpu().String() != "100m" ||
		pod.Spec.Containers[0].Ports[0].ContainerPort != 80 || pod.Kind != "Pod" || pod.APIVersion != "v1" {
		t.Errorf("pod decoded wrong: %+v", pod)
	}
	if objs[0].Pos.Line != 7 || objs[0].Pos.Column != 7 {
		t.Errorf("objects[0].Pos = %v, want line 7 column 7", objs[0].Pos)
	}
	if ref := objs[1].Ref(); ref.Namespace != "" || ref.Key() != "node-1" || ref.Resource.Namespaced {
		t.Errorf("node ref = %+v", ref)
	}
	if ref := objs[2].Ref(); ref.Key() != "prod/web" || ref.Resource.GVR.String() != "apps/v1, Resource=deployments" {
		t.Errorf("deployment ref = %+v", ref)
	}
	if cm := objs[3].Object.(*corev1.ConfigMap); cm.Data["run.sh"] != "echo hello\n" {
		t.Errorf("configmap data = %q", cm.Data)
	}
}

func TestVerb(t *testing.T) {
	tests := []struct {
		v    Verb
		want string
	}{
		{&Create{}, "create"},
		{&Update{}, "update"},
		{&Delete{}, "delete"},
		{&BreakWatches{}, "breakWatches"},
		{&RestartAPIServer{}, "restartAPIServer"},
		{&AddHandler{}, "addHandler"},
		{&HangHandler{}, "hangHandler"},
		{&KillLeader{}, "killLeader"},
		{&BlockLeaderLock{}, "blockLeaderLock"},
		{&StopKubelet{}, "stopKubelet"},
		{&StartKubelet{}, "startKubelet"},
		{&SetImageFSUsage{}, "setImageFSUsage"},
		{&InjectOOM{}, "injectOOM"},
		{&TakePort{}, "takePort"},
	}
	for _, tt := range tests {
		if got := tt.v.Name(); got != tt.want {
			t.Errorf("Name() = %q, want %q", got, tt.want)
		}
	}
	if len(verbs) != len(tests) {
		t.Errorf("verbs lists %d verbs, the test %d", len(verbs), len(tests))
	}
}

func TestLoadFileMissing(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "failed to read scenario file: open testdata/does-not-exist.yaml") {
		t.Errorf("LoadFile error = %v", err)
	}
}
