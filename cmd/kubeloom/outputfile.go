package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// An outputFile is a file a command writes (a recording, an export, a Go
// execution trace). It is written under a temporary name in the folder of
// its target and renamed over the target by Commit, so that a run or an
// export that fails or is killed half-way never destroys what was there,
// and a symbolic link at the target is replaced, not followed (a link
// planted in a shared folder cannot make kubeloom write elsewhere).
type outputFile struct {
	*os.File
	target string
	done   bool
}

// createOutput creates the temporary file of target, readable as files made
// with os.Create are under the usual umask: a recording or a page is a
// document to share. CreateTemp makes its files private (0600).
func createOutput(target string) (*outputFile, error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.partial")
	if err != nil {
		return nil, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	return &outputFile{File: tmp, target: target}, nil
}

// Commit closes the file and renames it over the target; if closing fails
// the target is left as it was.
func (f *outputFile) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if err := f.File.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), f.target); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Abort closes and removes the file, leaving the target as it was; after
// Commit it does nothing, so that a deferred Abort backs up every return.
func (f *outputFile) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// outputCheck is what a command checks of a file it is about to write,
// before it does any work: the files it reads, and whether --force lets it
// replace a file that is not kubeloom's.
type outputCheck struct {
	flag   string   // how the user named the output: "--out", "-o", "--go-trace"
	reads  []string // the files the command reads
	force  bool
	ours   func(path string) bool // whether an existing file is one kubeloom wrote and may replace
	others []string               // the command's other outputs, which this one must not be
}

// check returns an error if writing path would destroy something: a file
// the command reads (whatever --force says), another of its outputs, or an
// existing file that is not a kubeloom recording or export, unless --force.
func (c outputCheck) check(path string) error {
	for _, in := range c.reads {
		if sameFile(path, in) {
			return fmt.Errorf("%s %s is %s, which this command reads: writing there would destroy it; choose another name", c.flag, path, in)
		}
	}
	for _, other := range c.others {
		if sameFile(path, other) {
			return fmt.Errorf("%s %s is also where another output of this command goes (%s); choose another name", c.flag, path, other)
		}
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // nothing there, or a dangling link the rename replaces
	case err != nil:
		return fmt.Errorf("%s %s: %w", c.flag, path, err)
	case fi.IsDir():
		return fmt.Errorf("%s %s is a folder; name a file", c.flag, path)
	case c.force || fi.Size() == 0 || (fi.Mode().IsRegular() && c.ours(path)):
		return nil
	}
	return fmt.Errorf("%s %s exists and is not a file kubeloom wrote; pass --force to replace it", c.flag, path)
}

// sameFile reports whether two names are one file: the same inode when
// both exist (a hard link, a symbolic link or another spelling of the path
// included), else the same absolute path.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
