package traces

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
)

// LineError is a line of a trace file that could not be read as a span.
type LineError struct {
	File string // the name given to Read, or the path given to ReadFile
	Line int    // 1-based
	Err  error
}

func (e *LineError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ErrTruncated is wrapped by the LineError of a line that ends before its
// JSON object does, typically the last line of a recording that was
// interrupted. Test for it with errors.Is.
var ErrTruncated = errors.New("truncated JSON object")

// ReadFile reads the trace file at path; see Read.
func ReadFile(path string) ([]Span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a trace file (JSON Lines, one stdouttrace span object per line,
// as a Recorder or the stdouttrace exporter writes it) from r, plain or
// zstd-compressed (see Decompress); name is used in error messages.
//
// Every line that parses becomes a Span, in file order, with Line set; blank
// lines are skipped. A malformed or truncated line does not stop reading:
// Read returns every span it could read together with errors.Join of one
// *LineError per bad line (nil when there is none; past the first 100, one
// error counts the others), plus any error reading r. A line longer than
// 16 MiB is a bad line (ErrLineTooLong), read past without being held, and
// so is one nested too deep (limits.go): no file makes Read take memory or
// time out of proportion to it.
//
// Spans read from one file share the values that repeat, such as attribute
// keys and goroutine names, and spans of one resource share their Resource
// map: treat a Span's maps as read-only. Large files are parsed on all
// CPUs (GOMAXPROCS) in chunks of lines; the result does not depend on it.
// A compressed file is decompressed on other goroutines at the same time.
func Read(r io.Reader, name string) ([]Span, error) { return ReadWith(r, name, ReadOptions{}) }

// ReadWith reads a trace file as Read does, keeping of each span what opt
// says.
func ReadWith(r io.Reader, name string, opt ReadOptions) ([]Span, error) {
	return ReadContext(context.Background(), r, name, opt)
}

// ReadContext is ReadWith until ctx is done: then it stops reading (within
// a chunk of the file, milliseconds) and returns the spans read so far with
// an error wrapping context.Cause(ctx).
func ReadContext(ctx context.Context, r io.Reader, name string, opt ReadOptions) ([]Span, error) {
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	text, err := Decompress(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	defer text.Close()
	remaining := func() int64 { return sizeOf(r) }
	if d, ok := text.(*decompressor); ok {
		remaining = func() int64 { return d.estimate(sizeOf(r)) }
	}
	return read(ctx, text, name, remaining, opt)
}

// read reads the text of a trace file; remaining says, once the first
// chunk is read, how many bytes of text are left, if known (else 0).
func read(ctx context.Context, r io.Reader, name string, remaining func() int64, opt ReadOptions) ([]Span, error) {
	keep := newKeeper(opt)
	size := opt.chunkSize
	if size <= 0 {
		size = defaultChunkSize
	}
	rd := &chunkReader{ctx: ctx, r: r, name: name, size: size, maxLine: opt.lineLimit()}
	first, err := rd.next()
	if err != nil || first.final {
		// One chunk: no need for other goroutines.
		var res chunkResult
		if first != nil {
			res = parseChunk(first, newInternTable(keep), rd.maxLine)
		}
		return res.spans, errors.Join(append(limitLineErrors(name, res.errs, res.more), err)...)
	}

	// When the size of the input is known, the spans go straight into one
	// array big enough for them (each chunk gets a place for as many spans
	// as it can hold), saving a copy of them all at the end. The size is
	// reckoned from the bytes a line takes, but never fewer than a span
	// needs (minSpanLine), so that blank lines cannot make it more than
	// about twice the text's size.
	var arena []Span
	next := 0
	if size := remaining(); size > 0 && first.lines > 0 {
		perLine := max(float64(len(first.data))/float64(first.lines), minSpanLine)
		arena = make([]Span, int(float64(size)/perLine*1.15)+first.room()+1024)
	}
	place := func(c *chunk) {
		if n := c.room(); arena != nil && next+n <= len(arena) {
			c.dst = arena[next : next : next+n]
			next += n
		}
	}
	place(first)

	workers := max(1, runtime.GOMAXPROCS(0))
	jobs := make(chan *chunk, workers)
	results := make(chan chunkResult, workers)
	rd.free = make(chan []byte, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			tab := newInternTable(keep)
			for c := range jobs {
				results <- parseChunk(c, tab, rd.maxLine)
				// Spans keep no part of the chunk: its buffer can be reused.
				select {
				case rd.free <- c.data[:0]:
				default:
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	go func() {
		defer close(jobs)
		c := first
		for {
			jobs <- c
			if c.final {
				return
			}
			var err error
			if c, err = rd.next(); err != nil {
				rd.err = err
			}
			if c == nil {
				return
			}
			place(c)
		}
	}()
	var done []chunkResult
	for res := range results {
		done = append(done, res)
	}
	slices.SortFunc(done, func(a, b chunkResult) int { return cmp.Compare(a.seq, b.seq) })
	var errs []error
	more := 0
	for i := range done {
		// At most maxLineErrors, counting the others.
		keep := min(len(done[i].errs), max(0, maxLineErrors-len(errs)))
		errs = append(errs, done[i].errs[:keep]...)
		more += len(done[i].errs) - keep + done[i].more
	}
	return assemble(done, arena), errors.Join(append(limitLineErrors(name, errs, more), rd.err)...)
}

// assemble puts the spans of the chunks, in order, into one slice: in
// place in arena if every chunk parsed into it (closing the gaps that blank
// and bad lines left), else into a new one.
func assemble(done []chunkResult, arena []Span) []Span {
	inArena := arena != nil
	total := 0
	for _, res := range done {
		total += len(res.spans)
		inArena = inArena && res.inArena
	}
	if inArena {
		n := 0
		for i := range done {
			// Chunks lie in order: moving a chunk's spans down over the
			// gaps before it never overwrites spans not yet moved.
			if sp := done[i].spans; len(sp) > 0 && &sp[0] != &arena[n] {
				copy(arena[n:], sp)
			}
			n += len(done[i].spans)
		}
		return arena[:n:n]
	}
	spans := make([]Span, 0, total)
	for i := range done {
		spans = append(spans, done[i].spans...)
		done[i].spans = nil
	}
	return spans
}

// sizeOf returns the number of bytes r will give, if it says (a file, a
// bytes.Reader, a strings.Reader), or 0.
func sizeOf(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Stat() (os.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			if seeker, ok := r.(io.Seeker); ok {
				if off, err := seeker.Seek(0, io.SeekCurrent); err == nil {
					return fi.Size() - off
				}
			}
			return fi.Size()
		}
	case interface{ Len() int }:
		return int64(r.Len())
	}
	return 0
}

// defaultChunkSize is how much of a file one goroutine parses at a time
// (ReadOptions.chunkSize, which tests make small).
const defaultChunkSize = 4 << 20

// A chunk is whole lines of the file.
type chunk struct {
	seq       int
	file      string     // the name to give in errors
	firstLine int        // the number of its first line
	data      []byte     // whole lines, each ending in '\n' except perhaps the last of the file
	lines     int        // the number of lines in data
	final     bool       // the last chunk of the file
	dst       []Span     // where to put its spans (room for as many as it can hold), or nil
	after     *LineError // a line too long, skipped after data
}

// minSpanLine is fewer bytes than the shortest line that is a span (a
// name, two IDs in hex, two times: TestMinSpanLine), so that a chunk of
// n bytes holds at most n/minSpanLine+1 spans.
const minSpanLine = 128

// room is the most spans the chunk can hold.
func (c *chunk) room() int { return min(c.lines, len(c.data)/minSpanLine+1) }

type chunkResult struct {
	seq     int
	spans   []Span
	inArena bool // spans are where the chunk's dst was
	errs    []error
	more    int // bad lines past maxLineErrors, not in errs
}

// chunkReader cuts a file into chunks of whole lines.
type chunkReader struct {
	ctx  context.Context
	r    io.Reader
	name string
	size int
	// maxLine is the longest line read; the rest of a longer one is
	// read past (skipping), never held.
	maxLine  int
	skipping bool
	carry    []byte // the start of a line, read with the previous chunk
	seq      int
	line     int // the number of the next chunk's first line, minus one
	eof      bool
	big      bool        // a chunk has filled cr.size
	empty    int         // reads in a row that returned nothing
	free     chan []byte // buffers of parsed chunks, for reuse
	err      error       // an error reading r, after the chunks it ended
}

// next returns the next chunk, one marked final at the end of the input, or
// an error reading (with no chunk) after the complete lines read before it.
// A line longer than maxLine ends the chunk before it, with its LineError
// in the chunk's after; the next chunk starts after it.
func (cr *chunkReader) next() (*chunk, error) {
	// Small files need no big buffer: start small, and double up to the
	// chunk size (or beyond, for a line longer than that). Once a file
	// has needed a whole chunk, start there.
	size := min(cr.size, 64<<10)
	if cr.big {
		size = cr.size
	}
	var buf []byte
	if size == cr.size && cr.free != nil {
		select {
		case buf = <-cr.free:
		default:
		}
	}
	if cap(buf) < max(size, 2*len(cr.carry)) {
		buf = make([]byte, 0, max(size, 2*len(cr.carry)))
	}
	buf = append(buf[:0], cr.carry...)
	cr.carry = nil
	c := &chunk{seq: cr.seq, file: cr.name, firstLine: cr.line + 1}
	cr.seq++
	tooLong := false
	var readErr error
	for !cr.eof {
		if len(buf) == cap(buf) {
			last := bytes.LastIndexByte(buf, '\n')
			if len(buf)-(last+1) > cr.maxLine {
				// The line at the end is too long: the chunk ends
				// before it, and the rest of it is read past.
				tooLong = true
				buf = buf[:last+1]
				break
			}
			if len(buf) >= cr.size {
				cr.big = true
				if last >= 0 {
					break
				}
			}
			buf = slices.Grow(buf, len(buf))
		}
		n, err := cr.read(buf[len(buf):cap(buf)])
		if cr.skipping {
			// Past the end of the line too long, the bytes are kept.
			fresh := buf[len(buf) : len(buf)+n]
			if i := bytes.IndexByte(fresh, '\n'); i >= 0 {
				n = copy(fresh, fresh[i+1:])
				cr.skipping = false
			} else {
				n = 0
			}
		}
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			cr.eof = true
		} else if err != nil {
			readErr = err
			break
		}
	}
	if cr.eof && readErr == nil && !tooLong {
		c.data, c.final = buf, true
	} else {
		end := bytes.LastIndexByte(buf, '\n') + 1
		c.data = buf[:end]
		cr.carry = append(cr.carry, buf[end:]...) // a partial line: dropped after a read error
	}
	c.lines = bytes.Count(c.data, []byte{'\n'})
	if len(c.data) > 0 && c.data[len(c.data)-1] != '\n' {
		c.lines++
	}
	cr.line += c.lines
	if tooLong {
		cr.line++
		cr.skipping = true
		c.after = &LineError{File: cr.name, Line: cr.line, Err: lineTooLong(cr.maxLine)}
	}
	if readErr != nil {
		readErr = cr.readError(readErr)
		if len(c.data) == 0 && c.after == nil {
			return nil, readErr
		}
		// The lines read so far, then the error.
		cr.eof = true
		c.final = true
		return c, readErr
	}
	return c, nil
}

// read reads from the file once, unless ctx is done.
func (cr *chunkReader) read(p []byte) (int, error) {
	if err := context.Cause(cr.ctx); err != nil {
		return 0, err
	}
	n, err := cr.r.Read(p)
	if n == 0 && err == nil {
		// As bufio does: a reader that returns nothing again and again
		// is broken.
		if cr.empty++; cr.empty >= 100 {
			err = io.ErrNoProgress
		}
	} else {
		cr.empty = 0
	}
	return n, err
}

// readError names the file of an error reading it; an error decompressing
// it is the LineError of the line it cuts off (the lines before it are
// read), or of the line that would have followed.
func (cr *chunkReader) readError(err error) error {
	if _, ok := errors.AsType[*compressedError](err); ok {
		return &LineError{File: cr.name, Line: cr.line + 1, Err: err}
	}
	return fmt.Errorf("reading %s: %w", cr.name, err)
}

// badLine adds the error of a bad line, or counts it past maxLineErrors.
func (res *chunkResult) badLine(err *LineError) {
	if len(res.errs) < maxLineErrors {
		res.errs = append(res.errs, err)
	} else {
		res.more++
	}
}

// parseChunk reads the spans of a chunk's lines; a line longer than
// maxLine is a LineError.
func parseChunk(c *chunk, tab *internTable, maxLine int) chunkResult {
	res := chunkResult{seq: c.seq}
	data := c.data
	for lineNo := c.firstLine; len(data) > 0; lineNo++ {
		// Empty lines, in a run, cost a byte each: a file of nothing
		// else (which compresses thousands of times) reads at the speed
		// of decompressing it.
		if data[0] == '\n' {
			n := 1
			for n < len(data) && data[n] == '\n' {
				n++
			}
			data = data[n:]
			lineNo += n - 1
			continue
		}
		line := data
		complete := false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data, complete = data[:i+1], data[i+1:], true
		} else {
			data = nil
		}
		length := len(line)
		if complete {
			length-- // the newline
		}
		if length > maxLine {
			res.badLine(&LineError{File: c.file, Line: lineNo, Err: lineTooLong(maxLine)})
			continue
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if res.spans == nil {
			if c.dst != nil {
				res.spans, res.inArena = c.dst, true
			} else {
				res.spans = make([]Span, 0, len(c.data)/1024+1)
			}
		}
		// Parse in place: a Span is big to copy.
		n := len(res.spans)
		res.spans = append(res.spans, Span{})
		if err := tab.parseLine(trimmed, c.final && !complete, &res.spans[n], len(res.errs) < maxLineErrors); err != nil {
			res.spans = res.spans[:n]
			res.badLine(&LineError{File: c.file, Line: lineNo, Err: err})
			continue
		}
		res.spans[n].Line = lineNo
	}
	if c.after != nil {
		res.badLine(c.after)
	}
	if len(res.spans) == 0 {
		res.spans = nil
		res.inArena = c.dst != nil // no spans: nothing to move
	}
	// More spans than room (minSpanLine was wrong) moved them out.
	res.inArena = res.inArena && len(res.spans) <= cap(c.dst)
	return res
}
