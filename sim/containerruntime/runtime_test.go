package containerruntime

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	oteltrace "go.opentelemetry.io/otel/trace"
	clocktesting "k8s.io/utils/clock/testing"
)

// clockStart is when every test runtime's clock starts.
func clockStart() time.Time { return time.Date(2016, 12, 12, 0, 0, 0, 0, time.UTC) }

func newRuntime(node string, seed int64) (*Runtime, *clocktesting.FakeClock) {
	clk := clocktesting.NewFakeClock(clockStart())
	return New(Options{Node: node, Seed: seed, Clock: clk}), clk
}

func mustStart(t *testing.T, r *Runtime, podUID, name, image string) Container {
	t.Helper()
	c, err := r.StartContainer(podUID, "default", "pod-"+podUID, ContainerSpec{Name: name, Image: image})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDefaults(t *testing.T) {
	r, _ := newRuntime("node-1", 1)
	imgs := r.ListImages()
	if len(imgs) != 1 || imgs[0].Ref != PauseImage || imgs[0].Size != 747<<10 || !imgs[0].Pulled.Equal(clockStart()) {
		t.Errorf("default images = %+v, want the pause image (747 KiB) pulled at the start", imgs)
	}
	if fs := r.ImageFsInfo(); fs.Capacity != 20<<30 || fs.Usage != 747<<10 {
		t.Errorf("ImageFsInfo = %+v, want 20 GiB capacity and the pause image used", fs)
	}
	if got := r.MemoryAvailable(); got != 8<<30 {
		t.Errorf("MemoryAvailable = %d, want 8 GiB", got)
	}
	if r.Node() != "node-1" || r.Version() != "docker://1.11.2" || r.Status() != nil {
		t.Errorf("Node, Version, Status = %q, %q, %v", r.Node(), r.Version(), r.Status())
	}
	none := New(Options{Clock: clocktesting.NewFakeClock(clockStart()), Images: []string{}})
	if imgs := none.ListImages(); len(imgs) != 0 {
		t.Errorf("Images: []string{} gave %+v, want none", imgs)
	}
}

func TestStatus(t *testing.T) {
	r, _ := newRuntime("node-1", 1)
	r.SetUp(false)
	if err := r.Status(); !errors.Is(err, ErrRuntimeDown) || !strings.Contains(err.Error(), "container runtime is down") {
		t.Errorf("Status while down = %v, want ErrRuntimeDown", err)
	}
	r.SetUp(true)
	if err := r.Status(); err != nil {
		t.Errorf("Status after SetUp(true) = %v", err)
	}
}

// trace is what a runtime draws from its seed: container IDs, image sizes
// and a system OOM's process name.
func trace(t *testing.T, node string, seed int64) (ids []string, sizes map[string]int64, proc string) {
	r, _ := newRuntime(node, seed)
	for i := range 3 {
		ids = append(ids, mustStart(t, r, fmt.Sprint("uid-", i), "app", "nginx:1.11").ID)
	}
	if _, _, err := r.PullImage("redis:3.2"); err != nil {
		t.Fatal(err)
	}
	sizes = map[string]int64{}
	for _, img := range r.ListImages() {
		sizes[img.ID] = img.Size
	}
	ev, err := r.InjectOOM("", "", oteltrace.SpanContext{})
	if err != nil {
		t.Fatal(err)
	}
	return ids, sizes, ev.ProcessName
}

func TestDeterminism(t *testing.T) {
	ids1, sizes1, proc1 := trace(t, "node-1", 42)
	ids2, sizes2, proc2 := trace(t, "node-1", 42)
	if fmt.Sprint(ids1, sizes1, proc1) != fmt.Sprint(ids2, sizes2, proc2) {
		t.Errorf("same seed and node differ:\n%v %v %s\n%v %v %s", ids1, sizes1, proc1, ids2, sizes2, proc2)
	}
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, id := range ids1 {
		if !hex64.MatchString(id) {
			t.Errorf("container ID %q is not 64 hex characters", id)
		}
	}
	for id, size := range sizes1 {
		if !hex64.MatchString(strings.TrimPrefix(id, "sha256:")) {
			t.Errorf("image ID %q is not sha256: and 64 hex characters", id)
		}
		if size != 747<<10 && (size < 5<<20 || size > 400<<20) {
			t.Errorf("image %s has size %d, want 5 to 400 MiB", id, size)
		}
	}

	ids3, sizes3, _ := trace(t, "node-2", 42)
	for i := range ids1 {
		if ids1[i] == ids3[i] {
			t.Errorf("node-1 and node-2 drew the same container ID %s", ids1[i])
		}
	}
	if fmt.Sprint(sizes1) != fmt.Sprint(sizes3) {
		t.Errorf("the same images differ between nodes: %v vs %v", sizes1, sizes3)
	}
	if ids4, _, _ := trace(t, "node-1", 43); ids4[0] == ids1[0] {
		t.Errorf("seeds 42 and 43 drew the same container ID %s", ids1[0])
	}
}

func TestPullImage(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	clk.Step(time.Minute)
	img, pulled, err := r.PullImage("nginx")
	if err != nil || !pulled || img.Ref != "nginx:latest" || !img.Pulled.Equal(clockStart().Add(time.Minute)) {
		t.Fatalf("PullImage(nginx) = %+v, %v, %v; want nginx:latest pulled now", img, pulled, err)
	}
	again, pulled, err := r.PullImage("nginx:latest")
	if err != nil || pulled || again != img {
		t.Errorf("second PullImage = %+v, %v, %v; want the same image, not pulled", again, pulled, err)
	}

	small := New(Options{Clock: clk, Capacity: 1 << 20})
	if _, _, err := small.PullImage("nginx:1.11"); !errors.Is(err, ErrNoSpace) || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("PullImage on a 1 MiB filesystem = %v, want no space left on device", err)
	}
	if _, err := small.StartContainer("uid", "default", "web", ContainerSpec{Name: "web", Image: "nginx:1.11"}); !errors.Is(err, ErrNoSpace) {
		t.Errorf("StartContainer on a 1 MiB filesystem = %v, want no space left on device", err)
	}
	if n := len(small.ListImages()); n != 1 {
		t.Errorf("a failed pull left %d images, want only the pause image", n)
	}
}

func TestRunFor(t *testing.T) {
	for _, tc := range []struct {
		name       string
		runFor     time.Duration
		exitCode   int
		wantState  State
		wantReason string
	}{
		{"completes", 30 * time.Second, 0, StateExited, "Completed"},
		{"fails", 30 * time.Second, 3, StateExited, "Error"},
		{"runs until killed", 0, 0, StateRunning, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, clk := newRuntime("node-1", 1)
			clk.Step(time.Minute)
			c, err := r.StartContainer("uid", "default", "job", ContainerSpec{Name: "job", Image: "busybox", RunFor: tc.runFor, ExitCode: tc.exitCode})
			if err != nil {
				t.Fatal(err)
			}
			if c.State != StateRunning || !c.Created.Equal(clk.Now()) || !c.Started.Equal(clk.Now()) {
				t.Fatalf("started container = %+v", c)
			}
			clk.Step(29 * time.Second)
			if n := len(r.ListContainers(false)); n != 1 {
				t.Fatalf("%d running before RunFor elapsed, want 1", n)
			}
			clk.Step(time.Hour) // the runtime notices late; Finished must not move
			got, _ := r.Container(c.ID)
			if got.State != tc.wantState || got.Reason != tc.wantReason {
				t.Errorf("after RunFor: state %q reason %q, want %q %q", got.State, got.Reason, tc.wantState, tc.wantReason)
			}
			if tc.wantState == StateExited {
				if got.ExitCode != tc.exitCode || !got.Finished.Equal(c.Started.Add(tc.runFor)) {
					t.Errorf("exit code %d finished %v, want %d at %v", got.ExitCode, got.Finished, tc.exitCode, c.Started.Add(tc.runFor))
				}
				if n := len(r.ListContainers(false)); n != 0 {
					t.Errorf("%d running after RunFor, want 0", n)
				}
				// Stopping an exited container changes nothing.
				if err := r.StopContainer(c.ID, "Killed", 137); err != nil {
					t.Fatal(err)
				}
				if again, _ := r.Container(c.ID); again != got {
					t.Errorf("StopContainer changed an exited container: %+v", again)
				}
			}
		})
	}
}

func TestStopAndRemoveContainer(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	c := mustStart(t, r, "uid", "web", "nginx")
	if err := r.RemoveContainer(c.ID); err == nil {
		t.Error("RemoveContainer of a running container succeeded")
	}
	layers := r.ImageFsInfo().ContainersBytes
	if layers < 1<<20 || layers > 20<<20 {
		t.Errorf("ContainersBytes = %d, want a 1 to 20 MiB writable layer", layers)
	}
	clk.Step(time.Second)
	if err := r.StopContainer(c.ID, "Killed", 137); err != nil {
		t.Fatal(err)
	}
	got, _ := r.Container(c.ID)
	if got.State != StateExited || got.Reason != "Killed" || got.ExitCode != 137 || !got.Finished.Equal(clk.Now()) {
		t.Errorf("stopped container = %+v", got)
	}
	if fs := r.ImageFsInfo(); fs.ContainersBytes != layers {
		t.Errorf("an exited container's layer: ContainersBytes = %d, want %d", fs.ContainersBytes, layers)
	}
	if err := r.RemoveContainer(c.ID); err != nil {
		t.Fatal(err)
	}
	if fs := r.ImageFsInfo(); fs.ContainersBytes != 0 {
		t.Errorf("ContainersBytes after RemoveContainer = %d, want 0", fs.ContainersBytes)
	}
	if _, ok := r.Container(c.ID); ok {
		t.Error("removed container still found")
	}
	for _, err := range []error{r.RemoveContainer(c.ID), r.StopContainer(c.ID, "Killed", 137)} {
		if err == nil {
			t.Error("unknown container accepted")
		}
	}
}

func TestAttempt(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	var got []int
	for i := range 3 {
		c := mustStart(t, r, "uid-a", "app", "nginx")
		got = append(got, c.Attempt)
		clk.Step(time.Second)
		if err := r.StopContainer(c.ID, "Error", 1); err != nil {
			t.Fatal(err)
		}
		if i == 1 { // container GC does not reset the count
			if err := r.RemoveContainer(c.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	got = append(got,
		mustStart(t, r, "uid-a", "POD", PauseImage).Attempt,
		mustStart(t, r, "uid-a", "sidecar", "busybox").Attempt,
		mustStart(t, r, "uid-b", "app", "nginx").Attempt)
	if want := []int{0, 1, 2, 0, 0, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("attempts = %v, want %v", got, want)
	}
	all := r.ListContainers(true)
	for i := 1; i < len(all); i++ {
		if a, b := all[i-1], all[i]; a.Created.After(b.Created) || a.Created.Equal(b.Created) && a.ID > b.ID {
			t.Errorf("ListContainers not sorted by Created then ID at %d", i)
		}
	}
	if len(all) != 5 || len(r.ListContainers(false)) != 3 {
		t.Errorf("ListContainers(true) = %d, (false) = %d; want 5 and 3", len(all), len(r.ListContainers(false)))
	}
}

func TestRemoveImage(t *testing.T) {
	r, _ := newRuntime("node-1", 1)
	c := mustStart(t, r, "uid", "web", "nginx:1.11")
	for _, tc := range []struct {
		name    string
		prepare func() error
		id      string
		wantErr string
	}{
		{"running user", nil, c.ImageID, "used by running container"},
		{"exited user", func() error { return r.StopContainer(c.ID, "Killed", 137) }, c.ImageID, "used by exited container"},
		{"unknown", nil, "sha256:0000", "no such image"},
		{"removed user", func() error { return r.RemoveContainer(c.ID) }, c.ImageID, ""},
		{"by reference", nil, PauseImage, ""},
		{"again", nil, c.ImageID, "no such image"},
	} {
		if tc.prepare != nil {
			if err := tc.prepare(); err != nil {
				t.Fatal(err)
			}
		}
		err := r.RemoveImage(tc.id)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: RemoveImage = %v, want error %q", tc.name, err, tc.wantErr)
		}
	}
	if imgs := r.ListImages(); len(imgs) != 0 {
		t.Errorf("images left: %+v", imgs)
	}
}

func TestSetImageFSUsage(t *testing.T) {
	const capacity = 10 << 30
	r := New(Options{Clock: clocktesting.NewFakeClock(clockStart()), Capacity: capacity, Images: []string{"a", "b", "c"}})
	mustStart(t, r, "uid", "a", "a")
	base := r.ImageFsInfo()
	used := base.ImagesBytes + base.ContainersBytes
	if base.OtherBytes != 0 || base.Usage != used {
		t.Fatalf("initial ImageFsInfo = %+v", base)
	}
	lowest := int((used*100 + capacity - 1) / capacity) // ceil
	for _, tc := range []struct {
		percent   int
		wantUsage int64
		wantErr   string
	}{
		{90, capacity * 90 / 100, ""},
		{100, capacity, ""},
		{lowest, capacity * int64(lowest) / 100, ""},
		{lowest - 1, used, fmt.Sprintf("cannot go below %d%%", lowest)},
		{0, used, fmt.Sprintf("cannot go below %d%%", lowest)},
		{101, used, "invalid"},
	} {
		if tc.percent == 101 {
			r.SetImageFSUsage(0, oteltrace.SpanContext{}) // reset OtherBytes
		}
		fs, err := r.SetImageFSUsage(tc.percent, oteltrace.SpanContext{})
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("SetImageFSUsage(%d) error = %v, want %q", tc.percent, err, tc.wantErr)
		}
		if fs.Usage != tc.wantUsage || fs.Usage != fs.ImagesBytes+fs.ContainersBytes+fs.OtherBytes || fs != r.ImageFsInfo() {
			t.Errorf("SetImageFSUsage(%d) = %+v, want usage %d", tc.percent, fs, tc.wantUsage)
		}
	}
	// A full filesystem refuses pulls.
	r.SetImageFSUsage(100, oteltrace.SpanContext{})
	if _, _, err := r.PullImage("d"); !errors.Is(err, ErrNoSpace) {
		t.Errorf("PullImage at 100%% = %v, want no space left on device", err)
	}
}

func TestInjectOOM(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	pause := mustStart(t, r, "uid", "POD", PauseImage)
	first := mustStart(t, r, "uid", "app", "nginx:1.11")
	side := mustStart(t, r, "uid", "sidecar", "busybox")
	clk.Step(time.Minute)

	sys, err := r.InjectOOM("", "", oteltrace.SpanContext{})
	if err != nil || sys.ContainerName != "/" || sys.ProcessName == "" || sys.PodUID != "" || sys.ContainerID != "" || !sys.Time.Equal(clk.Now()) {
		t.Errorf("system OOM = %+v, %v", sys, err)
	}
	if n := len(r.ListContainers(false)); n != 3 {
		t.Errorf("a system OOM killed containers: %d running, want 3", n)
	}

	for _, tc := range []struct {
		container string
		want      Container
	}{
		{"", first}, // the first non-POD container
		{"sidecar", side},
		{"POD", pause},
	} {
		ev, err := r.InjectOOM("uid", tc.container, oteltrace.SpanContext{})
		if err != nil {
			t.Fatalf("InjectOOM(uid, %q): %v", tc.container, err)
		}
		if ev.ContainerID != tc.want.ID || ev.ContainerName != "/kubepods/uid/"+tc.want.ID || ev.PodUID != "uid" {
			t.Errorf("InjectOOM(uid, %q) = %+v, want container %s", tc.container, ev, tc.want.ID)
		}
		got, _ := r.Container(tc.want.ID)
		if got.State != StateExited || got.ExitCode != 137 || got.Reason != "OOMKilled" || !got.Finished.Equal(clk.Now()) {
			t.Errorf("OOM-killed container = %+v", got)
		}
	}
	if ev, _ := r.Container(first.ID); ev.Reason != "OOMKilled" {
		t.Errorf("first app container reason %q", ev.Reason)
	}

	// The newest container of a name is the one killed.
	old := mustStart(t, r, "uid", "app", "nginx:1.11")
	newer := mustStart(t, r, "uid", "app", "nginx:1.11")
	if ev, err := r.InjectOOM("uid", "app", oteltrace.SpanContext{}); err != nil || ev.ContainerID != newer.ID || ev.ProcessName != "nginx" {
		t.Errorf("InjectOOM(uid, app) = %+v, %v; want %s (nginx), not %s", ev, err, newer.ID, old.ID)
	}

	for _, tc := range [][2]string{{"uid", "sidecar"}, {"other", ""}, {"uid", "missing"}} {
		if _, err := r.InjectOOM(tc[0], tc[1], oteltrace.SpanContext{}); err == nil {
			t.Errorf("InjectOOM(%q, %q) with nothing running succeeded", tc[0], tc[1])
		}
	}
}

func TestStats(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	start := func(uid, ns, pod, name, image string) Container {
		c, err := r.StartContainer(uid, ns, pod, ContainerSpec{Name: name, Image: image})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	start("u1", "kube-system", "dns", "POD", PauseImage)
	start("u1", "kube-system", "dns", "kubedns", "kubedns-amd64:1.9")
	start("u1", "kube-system", "dns", "dnsmasq", "kube-dnsmasq-amd64:1.4")
	start("u2", "default", "web", "POD", PauseImage)
	web := start("u2", "default", "web", "nginx", "nginx")
	start("u3", "default", "idle", "POD", PauseImage)
	stopped := start("u3", "default", "idle", "app", "busybox")
	if err := r.StopContainer(stopped.ID, "Completed", 0); err != nil {
		t.Fatal(err)
	}

	stats := r.Stats()
	var got []string
	var ws uint64
	for _, p := range stats {
		for _, c := range p.Containers {
			got = append(got, p.Namespace+"/"+p.Name+"/"+c.Name)
			ws += c.MemoryWorkingSetBytes
			if c.CPUNanoCores == 0 || c.MemoryWorkingSetBytes == 0 || c.RootfsUsedBytes < 1<<20 {
				t.Errorf("%s/%s: empty stats %+v", p.Name, c.Name, c)
			}
		}
	}
	if want := "[default/web/nginx kube-system/dns/dnsmasq kube-system/dns/kubedns]"; fmt.Sprint(got) != want {
		t.Errorf("Stats = %v, want %s (running, not POD, sorted)", got, want)
	}
	if got := r.MemoryAvailable(); got != 8<<30-ws {
		t.Errorf("MemoryAvailable = %d, want 8 GiB - %d", got, ws)
	}

	clk.Step(59 * time.Second)
	if again := r.Stats(); fmt.Sprint(again) != fmt.Sprint(stats) {
		t.Errorf("stats changed within a minute:\n%v\n%v", stats, again)
	}
	clk.Step(10 * time.Minute)
	if later := r.Stats(); fmt.Sprint(later) == fmt.Sprint(stats) {
		t.Errorf("stats did not vary over ten minutes: %v", later)
	}

	if err := r.StopContainer(web.ID, "Killed", 137); err != nil {
		t.Fatal(err)
	}
	if stats := r.Stats(); len(stats) != 1 || stats[0].Name != "dns" {
		t.Errorf("Stats after stopping web = %+v, want only dns", stats)
	}
}

// TestStatsOf holds StatsOf to Stats: a pod's entry, its containers in the
// order they were created, and false for a pod with nothing running; a
// container whose run has ended counts as exited as soon as it has.
func TestStatsOf(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	start := func(uid, ns, pod, name, image string, runFor time.Duration) Container {
		c, err := r.StartContainer(uid, ns, pod, ContainerSpec{Name: name, Image: image, RunFor: runFor})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	start("u1", "kube-system", "dns", "POD", PauseImage, 0)
	start("u1", "kube-system", "dns", "kubedns", "kubedns-amd64:1.9", 0)
	start("u1", "kube-system", "dns", "dnsmasq", "kube-dnsmasq-amd64:1.4", 0)
	start("u2", "default", "web", "POD", PauseImage, 0)
	start("u2", "default", "web", "nginx", "nginx", 0)
	start("u3", "default", "job", "POD", PauseImage, 0)
	start("u3", "default", "job", "app", "busybox", 90*time.Second)
	clk.Step(time.Minute) // the stats vary from one minute to the next

	check := func(when string) {
		t.Helper()
		seen := map[string]bool{}
		for _, want := range r.Stats() {
			seen[want.PodUID] = true
			got, ok := r.StatsOf(want.PodUID)
			slices.SortFunc(got.Containers, func(a, b ContainerStats) int { return strings.Compare(a.Name, b.Name) })
			if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: StatsOf(%s) = %+v, %v; want Stats' %+v, true", when, want.PodUID, got, ok, want)
			}
		}
		for _, uid := range []string{"u1", "u2", "u3", "nope"} {
			if seen[uid] {
				continue
			}
			if got, ok := r.StatsOf(uid); ok || len(got.Containers) != 0 {
				t.Errorf("%s: StatsOf(%s) = %+v, %v; want nothing, false (no container of it runs)", when, uid, got, ok)
			}
		}
	}
	check("at 1m")
	if got, _ := r.StatsOf("u1"); len(got.Containers) != 2 || got.Containers[0].Name != "kubedns" || got.Containers[1].Name != "dnsmasq" {
		t.Errorf("StatsOf(u1) = %+v, want kubedns then dnsmasq (created in that order)", got)
	}
	clk.Step(time.Minute) // job's app exited at 1m30s: StatsOf must see it before anything else looks
	if got, ok := r.StatsOf("u3"); ok {
		t.Errorf("StatsOf(u3) at 2m = %+v, true; want false: its app's run ended at 1m30s", got)
	}
	check("at 2m")
}

func TestConcurrentUse(t *testing.T) {
	r, clk := newRuntime("node-1", 1)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			uid := fmt.Sprint("uid-", g)
			for i := range 20 {
				c, err := r.StartContainer(uid, "default", uid, ContainerSpec{Name: "app", Image: fmt.Sprint("img-", i%3), RunFor: time.Duration(i%2) * time.Second})
				if err != nil {
					t.Error(err)
					return
				}
				r.ListContainers(true)
				r.Stats()
				r.StatsOf(uid)
				r.MemoryAvailable()
				r.ImageFsInfo()
				r.ListImages()
				r.InjectOOM(uid, "", oteltrace.SpanContext{})
				r.InjectOOM("", "", oteltrace.SpanContext{})
				r.StopContainer(c.ID, "Killed", 137)
				r.RemoveContainer(c.ID)
				r.SetImageFSUsage(50, oteltrace.SpanContext{})
				r.Status()
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			clk.Step(time.Second)
			r.SetUp(false)
			r.SetUp(true)
		}
	})
	wg.Wait()
	if n := len(r.ListContainers(true)); n != 0 {
		t.Errorf("%d containers left, want 0", n)
	}
}

func ExampleRuntime() {
	clk := clocktesting.NewFakeClock(clockStart())
	r := New(Options{Node: "node-1", Seed: 1, Clock: clk})
	// The kubelet starts a pod: its infra container, then a job that runs
	// for a minute.
	pod, _ := r.StartContainer("uid-1", "default", "job", ContainerSpec{Name: "POD", Image: PauseImage})
	clk.Step(time.Second)
	job, _ := r.StartContainer("uid-1", "default", "job", ContainerSpec{Name: "main", Image: "busybox", RunFor: time.Minute})
	clk.Step(2 * time.Minute)
	for _, c := range r.ListContainers(true) {
		fmt.Println(c.Name, c.State, c.Reason, c.ExitCode)
	}
	// The pod is done: kill the infra container, garbage-collect the job's.
	r.StopContainer(pod.ID, "Killed", 137)
	r.RemoveContainer(job.ID)
	fmt.Println(len(r.ListContainers(false)), "running,", len(r.ListContainers(true)), "in all")
	// Output:
	// POD running  0
	// main exited Completed 0
	// 0 running, 1 in all
}

// Each infra container gets an address of the pod CIDR that no running
// sandbox holds, the same in every run for the same pod; app containers
// get none.
func TestSandboxIPs(t *testing.T) {
	start := func() []string {
		r := New(Options{Node: "node-1", Seed: 1, Clock: clocktesting.NewFakeClock(time.Unix(0, 0)), PodCIDR: "10.244.3.0/24"})
		var got []string
		for _, c := range []ContainerSpec{{Name: PodInfraContainerName, Image: PauseImage}, {Name: "app", Image: "nginx:1.11"}, {Name: PodInfraContainerName, Image: PauseImage}} {
			ctr, err := r.StartContainer("uid-"+c.Name, "default", "p", c)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ctr.IP)
		}
		return got
	}
	got := start()
	if got[1] != "" || got[0] == got[2] || !strings.HasPrefix(got[0], "10.244.3.") || !strings.HasPrefix(got[2], "10.244.3.") || got[0] == "10.244.3.1" {
		t.Errorf("IPs = %q, want two distinct addresses of 10.244.3.0/24 other than .1, and none for the app", got)
	}
	if again := start(); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("another runtime gave %q, then %q: want the same addresses in every run", got, again)
	}

	// A full /24: every running sandbox has its own address.
	r := New(Options{Node: "node-1", Clock: clocktesting.NewFakeClock(time.Unix(0, 0)), PodCIDR: "10.244.3.0/24"})
	seen := map[string]bool{}
	for i := range 253 {
		ctr, err := r.StartContainer(fmt.Sprint("uid-", i), "default", "p", ContainerSpec{Name: PodInfraContainerName, Image: PauseImage})
		if err != nil {
			t.Fatal(err)
		}
		if seen[ctr.IP] {
			t.Fatalf("sandbox %d got %s, which a running sandbox holds", i, ctr.IP)
		}
		seen[ctr.IP] = true
	}
}
