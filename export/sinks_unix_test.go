//go:build unix

package export

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A record of megabytes (a payload's tool name: the model chose it) sent
// to the local syslog socket: one datagram that long does not fit
// (EMSGSIZE), the batch failed whole, and its retries failed alike, so
// the other records of the batch never reached syslog either. It is cut
// to a datagram that fits, as over UDP, and the next record is sent.
func TestSyslogUnixSocketHugeRecord(t *testing.T) {
	dir, err := os.MkdirTemp("", "sl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log")
	pc, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	_ = pc.SetReadBuffer(1 << 20)
	huge := strings.Replace(blockLine, `"tool":"terminal"`, `"tool":"`+strings.Repeat("t", 4<<20)+`"`, 1)
	s := &syslogSink{target: SyslogTarget{Network: "unixgram", Addr: path}, host: "box"}
	defer s.close()
	if err := s.send(context.Background(), []item{newItem([]byte(huge)), newItem([]byte(allowLine))}); err != nil {
		t.Fatalf("the batch failed: %v", err)
	}
	buf := make([]byte, 1<<20)
	_ = pc.SetReadDeadline(time.Now().Add(hang))
	for i, want := range []string{`seq="7"`, `"seq":8,`} {
		n, err := pc.Read(buf)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if n > maxUnixgram || !strings.Contains(string(buf[:n]), want) {
			t.Errorf("message %d: %d bytes, want at most %d holding %s", i, n, maxUnixgram, want)
		}
	}
}
