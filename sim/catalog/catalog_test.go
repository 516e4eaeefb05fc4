package catalog

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

func TestEveryEntryExplainsItself(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("empty catalog")
	}
	kinds := map[string]bool{KindGo: true, KindUntil: true, KindJitterUntil: true, KindForever: true, KindMain: true}
	for _, e := range All() {
		if !strings.Contains(e.Name, "/") {
			t.Errorf("%q: catalog names are component/goroutine", e.Name)
		}
		if !kinds[e.Kind] {
			t.Errorf("%s: kind %q", e.Name, e.Kind)
		}
		if e.Function == "" || !strings.HasPrefix(e.File, "pkg/") && !strings.HasPrefix(e.File, "cmd/") && !strings.HasPrefix(e.File, "plugin/") && !strings.HasPrefix(e.File, "vendor/") {
			t.Errorf("%s: needs the Kubernetes function and file (got %q, %q)", e.Name, e.Function, e.File)
		}
		// wait.Until(f, 0, stop) and wait.Forever(f, 0) are back-to-back
		// calls, so an until or forever loop may have period 0; a jittered
		// loop always has one.
		if e.Kind == KindJitterUntil && e.Period == 0 {
			t.Errorf("%s: a %s loop needs its default period", e.Name, e.Kind)
		}
		// The period is the source's: it names the constant, literal or flag.
		if (e.Period > 0) != (e.PeriodFrom != "") {
			t.Errorf("%s: period %s needs PeriodFrom, the source constant, literal or flag it comes from (got %q)", e.Name, e.Period, e.PeriodFrom)
		}
		if got, ok := Lookup(e.Name); !ok || got.Name != e.Name {
			t.Errorf("Lookup(%q) failed", e.Name)
		}
	}
}

func TestKubeletEntriesFollowTheArticle(t *testing.T) {
	named := []string{
		"kubelet/log-flush", "kubelet/healthz-server",
		"kubelet/source-file", "kubelet/source-url", "kubelet/source-apiserver",
		"kubelet/container-gc", "kubelet/image-gc",
		"kubelet/main-loop", "kubelet/server", "kubelet/readonly-server",
		"kubelet/image-detect", "kubelet/cm-ensure-state", "kubelet/cm-periodic-tasks",
		"kubelet/oom-watcher", "kubelet/fs-volume-stats",
		"kubelet/volume-manager", "kubelet/node-status", "kubelet/network-status",
		"kubelet/runtime-up", "kubelet/pod-killer", "kubelet/status-manager",
		"kubelet/probe-readiness", "kubelet/eviction", "kubelet/pleg-relist",
	}
	unnamed := []string{
		"kubelet/event-broadcast-loop", "kubelet/event-log-watcher", "kubelet/event-sink-watcher",
		"kubelet/config-mux", "kubelet/image-cache", "kubelet/kill-pod",
		"kubelet/volume-dswp", "kubelet/volume-reconciler",
		"kubelet/probe-worker", "kubelet/pod-worker", "kubelet/volume-stat-calculator",
	}
	for _, name := range append(append([]string{}, named...), unnamed...) {
		if e, ok := Lookup(name); !ok || e.Component != "kubelet" {
			t.Errorf("%s: missing, or not a kubelet entry (%q)", name, e.Component)
		}
	}
	for _, name := range named {
		if e, _ := Lookup(name); e.Article == "" || e.Story(locale.Articles).Quote == "" {
			t.Errorf("%s: the article names it, so it needs Article and Quote", name)
		}
	}
	// Not in the article's v1.3 (image-cache came in 1.4) or not shown by it.
	for _, name := range []string{"kubelet/image-cache", "kubelet/kill-pod", "kubelet/volume-stat-calculator",
		"kubelet/event-broadcast-loop", "kubelet/event-log-watcher", "kubelet/event-sink-watcher"} {
		if e, _ := Lookup(name); e.Article != "" || e.Story(locale.Articles).Quote != "" {
			t.Errorf("%s: the article does not name it, so Article and Quote stay empty", name)
		}
	}
}

// TestArticleNamesASection: an entry's or a step's Article is a fact, the
// article's file and the section it is in (the section's own words, and
// code it names), shown as it is in every language. Words about it belong
// in the stories, which are translated: an English phrase here showed
// untranslated on the Chinese pages (docs/zh/goroutines.md).
func TestArticleNamesASection(t *testing.T) {
	prose := regexp.MustCompile(`(?:^|[\s(,])([a-z]{2,} [a-z]{2,})\b`) // not server.go run
	check := func(name, article string) {
		if article == "" {
			return
		}
		file, section, ok := strings.Cut(article, " ")
		if !ok || (file != articleCM && file != articleKubelet) {
			t.Errorf("%s: Article %q: want an article's file, then its section", name, article)
			return
		}
		if p := prose.FindStringSubmatch(section); p != nil {
			t.Errorf("%s: Article %q has words about the section (%q): say them in the stories", name, article, p[1])
		}
	}
	for _, e := range All() {
		check(e.Name, e.Article)
	}
	for _, s := range Steps() {
		check(s.Component+" "+s.Name, s.Article)
	}
}
