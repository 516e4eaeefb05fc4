package deadend

import (
	"net"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRefused(t *testing.T) {
	if c, err := net.Dial("tcp", Refused(t)); err == nil {
		c.Close()
		t.Fatal("a connection to Refused succeeded")
	}
}

func TestHungAcceptsAndNeverAnswers(t *testing.T) {
	c, err := net.Dial("tcp", Hung(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("Hung answered: %d bytes, %v", n, err)
	}
}
