// Package deadend gives tests the two ways a collector can be dead on
// 127.0.0.1: a port that refuses connections, and one that accepts them and
// never answers, as a hung collector does. kubeloom's exporters must survive
// both within their timeout.
package deadend

import (
	"net"
	"sync"
	"testing"
)

// Refused returns a loopback address nothing listens on.
func Refused(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// Hung returns a loopback address that accepts connections and never reads
// or writes: the kernel completes the handshake, nobody answers. The
// listener and its connections close when the test ends.
func Hung(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}
