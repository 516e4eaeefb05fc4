package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// bigRecording is the size of text from which pauseReading pauses the
// garbage collector: of one recording, or of the recordings read together.
const bigRecording = 64 << 20

// compressionRatio bounds how many times smaller a compressed recording is
// than its text: about 30 (docs/design.md, "Compressed recordings"). The
// collector's budget for a compressed file is reckoned from it, so that it
// is not a tiny fraction of what the spans take.
const compressionRatio = 40

// readRecording reads a recording, plain or compressed, for replay, step,
// export and push, keeping of its spans what opt says; the caller calls
// done when it has built what it shows from the spans (calling it again
// does nothing).
//
// Nearly everything that reading and building a timeline allocate stays
// alive (the spans, the lanes), so the collections that would run meanwhile
// find almost no garbage: they only mark the growing heap again and again.
// For a big file the collector is paused until done (pauseReading), with a
// memory limit as a safety net. On a 1,000,000-span recording (1.3 GB) this
// takes `replay --summary` from about 3.5 s to 2.2 s on two cores, at the
// same peak memory (BenchmarkReplaySummary1M).
//
// Reading stops when ctx is done (SIGINT or SIGTERM): then the error says
// so, and there are no spans, so that no command goes on with what was
// read.
func readRecording(ctx context.Context, path string, opt traces.ReadOptions) (spans []traces.Span, done func(), err error) {
	done = pauseReading(path)
	spans, err = readSpans(ctx, path, opt)
	return spans, done, err
}

// readSpans is readRecording without the pause: the caller pauses the
// collector (readTimelines pauses it once for every file it reads).
func readSpans(ctx context.Context, path string, opt traces.ReadOptions) ([]traces.Span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	spans, err := traces.ReadContext(ctx, f, path, opt)
	if cause := context.Cause(ctx); cause != nil {
		return nil, fmt.Errorf("reading %s: %w", path, cause)
	}
	return spans, err
}

// pauseReading pauses the collector (pauseGC) while the recordings at
// paths are read and what is shown is built from them, if their text
// together is big (bigRecording), and returns what resumes it (calling it
// again does nothing). The budget is the heap so far plus twice the text's
// size plus 256 MiB (spans take about two thirds of their text's size): the
// sum of the files', since all their spans stay alive together. Only a
// regular file is opened to be sized (opening a named pipe would wait for
// its writer, and closing it would end the writer's stream); another, or
// one that cannot be opened, counts for nothing: its read says why.
func pauseReading(paths ...string) (done func()) {
	var size int64
	for _, path := range paths {
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if f, err := os.Open(path); err == nil {
			size += textSize(f)
			f.Close()
		}
	}
	if size < bigRecording {
		return func() {}
	}
	return pauseGC(2 * size)
}

// readShown reads a recording for a command that shows what it can read
// (replay, step, export): a file with no span is an error (the read's, or
// "no spans"), and spans read despite an error are used, with a warning on
// warn that says what could not be read; rest, if any, says what the
// command does with the others ("exporting the rest"). done is
// readRecording's.
func readShown(ctx context.Context, path string, opt traces.ReadOptions, warn io.Writer, rest string) (spans []traces.Span, done func(), err error) {
	done = pauseReading(path)
	spans, err = readShownSpans(ctx, path, opt, warn, rest)
	return spans, done, err
}

// readShownSpans is readShown without the pause (readSpans).
func readShownSpans(ctx context.Context, path string, opt traces.ReadOptions, warn io.Writer, rest string) ([]traces.Span, error) {
	spans, err := readSpans(ctx, path, opt)
	if len(spans) == 0 {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: no spans in the recording: expected a JSON Lines file written by kubeloom run --out", path)
	}
	if err != nil {
		printf(warn, "warning: some lines of %s could not be read%s:\n%v\n", path, rest, err)
	}
	return spans, nil
}

// textSize is the size of the recording's text: the file's, or for a
// compressed file at most compressionRatio times that; 0 if unknown.
func textSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	head := make([]byte, 4)
	if n, _ := f.ReadAt(head, 0); traces.IsCompressed(head[:n]) {
		return fi.Size() * compressionRatio
	}
	return fi.Size()
}

// pauseGC turns the garbage collector off until its result is called,
// unless the heap grows by more than budget bytes (plus 256 MiB), or past a
// lower memory limit the user set (GOMEMLIMIT).
func pauseGC(budget int64) (restore func()) {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(sample)
	limit := int64(sample[0].Value.Uint64()) + budget + 256<<20
	oldLimit := debug.SetMemoryLimit(-1) // -1 reads it
	oldPercent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, oldLimit))
	return sync.OnceFunc(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
}

// readTimelines reads recordings in parallel, each as readShown reads one,
// and builds their timelines (diff's two, step --against's two): the time
// of the bigger, not of both. It returns the first read's spans too (step's
// interactive view wants them), and done, which the caller calls when it
// has built what it shows (calling it again does nothing). The read that
// fails first cancels the others, and its error is the one returned, not
// their "canceled".
//
// The collector is paused once for all the reads (pauseReading), with a
// budget for all their spans, since they stay alive together: done resumes
// it.
func readTimelines(ctx context.Context, files []string, warn io.Writer) (tls []*timeline.Timeline, first []traces.Span, done func(), err error) {
	tls = make([]*timeline.Timeline, len(files))
	errs := make([]error, len(files))
	done = pauseReading(files...)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, file := range files {
		wg.Go(func() {
			spans, err := readShownSpans(rctx, file, traces.ReadOptions{}, warn, "")
			if err == nil {
				tls[i], err = timeline.BuildContext(rctx, spans)
			}
			if i == 0 {
				first = spans
			}
			if err != nil {
				errs[i] = err
				cancel() // no use reading the others
			}
		})
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil && (ctx.Err() != nil || !errors.Is(e, context.Canceled)) {
			return nil, nil, done, e
		}
	}
	for _, e := range errs {
		if e != nil {
			return nil, nil, done, e
		}
	}
	return tls, first, done, nil
}
