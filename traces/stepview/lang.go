package stepview

import (
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Languages of the narrative: the catalog's English Summary or its Chinese
// SummaryZH. The article quotes are the article's Chinese in both; English
// adds the catalog's rendering of them (QuoteEN) under them. The headings
// follow the language.
const (
	English = "en"
	Chinese = "zh"
)

// checkLang returns the language to use for lang ("" is English).
func checkLang(lang string) (string, error) {
	switch lang {
	case "", English:
		return English, nil
	case Chinese:
		return Chinese, nil
	}
	return "", fmt.Errorf("unknown language %q: expected %s (English) or %s (中文)", lang, English, Chinese)
}

// words are the fixed texts of a story in one language.
type words struct {
	kinds      map[timeline.StepKind]string
	step       func(i, n int) string // "step 3 of 10"
	goroutines func(running, stopped int) string
	summary    func(steps, lanes int, d time.Duration) string

	object, took, lived, skipped, period, evType string
	what, article, source, now                   string
	noArticle, mainLane, unknown                 string
	rendered                                     string // "(rendered in English: %s)"; "" shows no rendering
	language                                     string

	first, last, pastEnd, noMatch, wrapped string
	followed, followEnd, noFollow, link    string
	jumpPrompt, searchPrompt, help, legend string
}

var dict = map[string]words{
	English: {
		kinds: map[timeline.StepKind]string{
			timeline.StepStarted:   "goroutine started",
			timeline.StepIteration: "iteration",
			timeline.StepCall:      "call",
			timeline.StepEvent:     "event",
			timeline.StepStopped:   "goroutine stopped",
		},
		step: func(i, n int) string { return fmt.Sprintf("step %d of %d", i, n) },
		summary: func(steps, lanes int, d time.Duration) string {
			return fmt.Sprintf("%d steps on %d goroutines in %s simulated", steps, lanes, formatOffset(d))
		},
		object:  "object",
		took:    "took",
		lived:   "ran for",
		skipped: "idle iterations before it not recorded",
		period:  "every",
		evType:  "type",
		goroutines: func(running, stopped int) string {
			return fmt.Sprintf("goroutines so far: %d running, %d stopped", running, stopped)
		},
		what:      "What it does",
		article:   "The article says",
		source:    "Kubernetes source",
		now:       "Then vs now",
		noArticle: "The articles do not name this goroutine; the catalog places it from the Kubernetes source.",
		// kubeloom's translation, not the article's text, so the label
		// says so.
		rendered: "(rendered in English: %s)",
		mainLane: "This is the instance's main line: startup steps and scenario actions, which run on no " +
			"goroutine of their own. The goroutines they start have steps of their own.",
		unknown:      "kubeloom's goroutine catalog has no entry for %s; the recording may come from another version of kubeloom.",
		language:     "language: English",
		first:        "this is the first step",
		last:         "this is the last step",
		pastEnd:      "the steps end before %s: the last is at %s",
		noMatch:      "no goroutine matches %q",
		wrapped:      "%s: no later step, back to the first",
		followed:     "followed %s to %s on %s",
		followEnd:    "%s: no later step continues it",
		link:         "the links from %s",
		noFollow:     "nothing to follow: this step has no object key and no step links to it",
		jumpPrompt:   "jump to (e.g. 1m30s): ",
		searchPrompt: "search goroutine (substring or glob): ",
		help:         "n/→/space next · p/← previous · g jump · / search · f follow · l 中文 · ↑/↓ scroll · q quit",
		legend:       "▶ started  ● running  ■ stopped",
	},
	Chinese: {
		kinds: map[timeline.StepKind]string{
			timeline.StepStarted:   "协程启动",
			timeline.StepIteration: "迭代",
			timeline.StepCall:      "调用",
			timeline.StepEvent:     "事件",
			timeline.StepStopped:   "协程退出",
		},
		step: func(i, n int) string { return fmt.Sprintf("第 %d 步，共 %d 步", i, n) },
		summary: func(steps, lanes int, d time.Duration) string {
			return fmt.Sprintf("%d 个协程上的 %d 步，模拟时间 %s", lanes, steps, formatOffset(d))
		},
		object:  "对象",
		took:    "耗时",
		lived:   "运行了",
		skipped: "次之前的空闲迭代未记录",
		period:  "周期",
		evType:  "类型",
		goroutines: func(running, stopped int) string {
			return fmt.Sprintf("到此为止的协程：%d 个运行中，%d 个已退出", running, stopped)
		},
		what:         "它做什么",
		article:      "文章原文",
		source:       "Kubernetes 源码",
		now:          "当年与现在",
		noArticle:    "文章没有提到这个协程；目录根据 Kubernetes 源码收录它。",
		rendered:     "", // the article is in Chinese: its sentence needs no rendering here
		mainLane:     "这是实例的主线：启动步骤和场景动作，它们不在单独的协程上运行。它们启动的协程有各自的步骤。",
		unknown:      "kubeloom 的协程目录里没有 %s；这个录制可能来自另一个版本的 kubeloom。",
		language:     "语言：中文",
		first:        "这是第一步",
		last:         "这是最后一步",
		pastEnd:      "步骤在 %s 之前就结束了：最后一步在 %s",
		noMatch:      "没有协程匹配 %q",
		wrapped:      "%s：后面没有了，回到第一个",
		followed:     "沿着 %s 到了 %s（%s）",
		followEnd:    "%s：后面没有步骤接着它",
		link:         "%s 的因果链接",
		noFollow:     "没有可跟踪的：这一步没有对象键，也没有步骤链接到它",
		jumpPrompt:   "跳到（如 1m30s）：",
		searchPrompt: "搜索协程（子串或通配符）：",
		help:         "n/→/空格 下一步 · p/← 上一步 · g 跳转 · / 搜索 · f 跟踪 · l English · ↑/↓ 滚动 · q 退出",
		legend:       "▶ 启动  ● 运行中  ■ 已退出",
	},
}
