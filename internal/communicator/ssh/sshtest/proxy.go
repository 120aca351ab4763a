package sshtest

import (
	"bufio"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
)

// pipe copies between client, whose bytes come from r, and target until
// either closes.
func pipe(client net.Conn, r io.Reader, target net.Conn) {
	go func() { io.Copy(client, target); client.Close() }()
	io.Copy(target, r)
	target.Close()
}

// HTTPProxy is an HTTP proxy that tunnels CONNECT requests from
// user "bob" with password "pw". It counts the tunnels it made and
// returns its port.
func HTTPProxy(t testing.TB, tunnels *atomic.Int32) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				r, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				if r.Method != http.MethodConnect {
					io.WriteString(conn, "HTTP/1.1 405 Method Not Allowed\r\n\r\n")
					return
				}
				if r.Header.Get("Proxy-Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte("bob:pw")) {
					io.WriteString(conn, "HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")
					return
				}
				target, err := net.Dial("tcp", r.Host)
				if err != nil {
					io.WriteString(conn, "HTTP/1.1 502 Bad Gateway\r\n\r\n")
					return
				}
				io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
				tunnels.Add(1)
				// A client may send more without waiting for the
				// answer: br holds it.
				pipe(conn, br, target)
			}()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}
