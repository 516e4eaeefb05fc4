// Package memnet is an in-memory network for tests that run simulated
// servers inside a testing/synctest bubble: a goroutine blocked in a real
// socket's Accept or Read is not "durably blocked", so the bubble's clock
// would never move, while one blocked on net.Pipe's channels is. The
// servers are the same net/http servers kubeloom runs on 127.0.0.1.
package memnet

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
)

// Network hands out listeners by address and dials them.
type Network struct {
	mu        sync.Mutex
	listeners map[string]*listener
	next      int
}

// New returns an empty network.
func New() *Network { return &Network{listeners: map[string]*listener{}} }

// Listen is net.Listen: an address ending in ":0" gets a free port.
func (n *Network) Listen(network, address string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if port == "0" {
		n.next++
		port = strconv.Itoa(40000 + n.next)
	}
	addr := net.JoinHostPort(host, port)
	if _, taken := n.listeners[addr]; taken {
		return nil, &net.OpError{Op: "listen", Net: network, Err: errors.New("address already in use")}
	}
	l := &listener{net: n, addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
	n.listeners[addr] = l
	return l, nil
}

// Dial connects to a listener (http.Transport.DialContext).
func (n *Network) Dial(ctx context.Context, _, address string) (net.Conn, error) {
	n.mu.Lock()
	l := n.listeners[address]
	n.mu.Unlock()
	if l == nil {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type listener struct {
	net   *Network
	addr  string
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *listener) Close() error {
	l.once.Do(func() {
		close(l.done)
		l.net.mu.Lock()
		delete(l.net.listeners, l.addr)
		l.net.mu.Unlock()
	})
	return nil
}

func (l *listener) Addr() net.Addr { return addr(l.addr) }

type addr string

func (a addr) Network() string { return "tcp" }
func (a addr) String() string  { return string(a) }
