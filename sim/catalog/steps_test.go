package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// ArticlesEnv is the one switch through which a test reads a path outside
// the repository: the folder that holds the two source-reading articles
// (kube-controller-manager-startup.zh.txt and kubelet-goroutines.zh.txt).
// They are not part of the repository; CI has them and sets it
// (.ci/run: KUBELOOM_ARTICLES=../shared/articles).
const articlesEnv = "KUBELOOM_ARTICLES"

// articlesDir returns the articles' folder, or skips the test with one
// line that says why; under CI=true a missing switch is a failure.
func articlesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(articlesEnv)
	switch {
	case dir != "":
		return dir
	case os.Getenv("CI") == "true":
		t.Fatalf("CI=true but %s is not set: CI must check the quotes against the original articles (.ci/run sets it)", articlesEnv)
	default:
		t.Skipf("not checked against the original articles: they are not in the repository; set %s=DIR (the folder holding %s and %s) to check", articlesEnv, articleCM, articleKubelet)
	}
	return ""
}

// noSpace removes every white-space character (the articles have lost
// their line breaks in places and use no-break spaces in others).
func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func TestEveryStepExplainsItself(t *testing.T) {
	if len(Steps()) == 0 {
		t.Fatal("no steps")
	}
	for _, s := range Steps() {
		id := s.Component + " " + s.Name
		if s.Component == "" || s.Name == "" {
			t.Errorf("%q: needs Component and Name", id)
		}
		if s.Function == "" {
			t.Errorf("%s: needs the function it stands for", id)
		}
		if s.Story(locale.Articles).Quote != "" && s.Article == "" {
			t.Errorf("%s: a quote needs the article section it comes from", id)
		}
		if s.Article != "" && !strings.HasPrefix(s.Article, articleCM) && !strings.HasPrefix(s.Article, articleKubelet) {
			t.Errorf("%s: Article %q names neither article", id, s.Article)
		}
		if got, ok := LookupStep(s.Component, s.Name); !ok || got.Component != s.Component || got.Name != s.Name {
			t.Errorf("LookupStep(%q, %q) failed", s.Component, s.Name)
		}
	}
}

// A quote is the article's own text (the quote of the articles' language,
// locale.Articles): one passage, or several joined by "；", each found
// verbatim in one of the articles once white space is ignored.
func TestStepQuotesAreVerbatim(t *testing.T) {
	dir := articlesDir(t)
	var articles []string
	for _, name := range []string{articleCM, articleKubelet} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s=%s: %v", articlesEnv, dir, err)
		}
		articles = append(articles, noSpace(string(b)))
	}
	found := func(q string) bool {
		q = noSpace(q)
		for _, a := range articles {
			if q != "" && strings.Contains(a, q) {
				return true
			}
		}
		return false
	}
	for _, s := range Steps() {
		quote := s.Story(locale.Articles).Quote
		if quote == "" || found(quote) {
			continue
		}
		for _, part := range strings.Split(quote, "；") {
			if !found(part) {
				t.Errorf("%s %s: %q is not in the articles", s.Component, s.Name, part)
			}
		}
	}
}

// Every span on a main line of the built-in scenarios (both eras, and a
// controller manager without leader election) has a story.
func TestMainLineSpansHaveSteps(t *testing.T) {
	want := map[string][]string{
		"kube-controller-manager": {"glog.init", "main", "NewCMServer", "AddFlags", "InitFlags", "InitLogs", "Run", "configz.New",
			"BuildConfigFromFlags", "NewForConfig", "NewForConfigOrDie", "NewBroadcaster", "StartLogging",
			"StartRecordingToSink", "NewRecorder", "RunOrDie", "StartControllers", "ServerAPIVersions", "ServerResources", "start", "sharedInformers.Start"},
		"kubelet": {"glog.init", "main", "NewKubeletServer", "AddFlags", "InitFlags", "InitLogs", "run", "UnsecuredKubeletConfig",
			"CreateAPIServerClientConfig", "NewForConfig", "RunKubelet", "NewBroadcaster", "StartLogging",
			"StartRecordingToSink", "NewRecorder", "CreateAndInitKubelet", "makePodSourceConfig", "NewSourceFile",
			"NewSourceURL", "NewSourceApiserver", "NewMainKubelet", "BirthCry", "StartGarbageCollection", "startKubelet"},
		"kubeloom": {"scenario", "LoadObjects", "action/create", "action/update", "action/delete", "action/breakWatches", "action/restartAPIServer",
			"action/addHandler", "action/hangHandler", "action/killLeader", "action/blockLeaderLock", "action/stopKubelet", "action/startKubelet",
			"action/setImageFSUsage", "action/injectOOM", "action/takePort"},
		"informers": {"StartInformers", "action/addHandler", "AddEventHandler"},
	}
	n := 0
	for component, names := range want {
		for _, name := range names {
			n++
			if _, ok := LookupStep(component, name); !ok {
				t.Errorf("no step %s %s", component, name)
			}
		}
	}
	if len(Steps()) != n {
		t.Errorf("%d steps, want %d: add the new ones to this test", len(Steps()), n)
	}
}
