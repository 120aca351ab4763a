package ssh_test

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	commssh "github.com/strata-dev/strata/internal/communicator/ssh"
	"github.com/strata-dev/strata/internal/communicator/ssh/sshtest"
)

// socks5Proxy is a SOCKS5 proxy without authentication that serves
// CONNECT to IPv4 addresses. It counts the tunnels it made.
func socks5Proxy(t *testing.T, tunnels *atomic.Int32) int {
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
				buf := make([]byte, 262)
				// Greeting: version, methods; choose "no authentication".
				if _, err := io.ReadFull(conn, buf[:2]); err != nil {
					return
				}
				if _, err := io.ReadFull(conn, buf[:buf[1]]); err != nil {
					return
				}
				conn.Write([]byte{5, 0})
				// Request: version, CONNECT, reserved, IPv4, address, port.
				if _, err := io.ReadFull(conn, buf[:10]); err != nil || buf[1] != 1 || buf[3] != 1 {
					return
				}
				addr := net.JoinHostPort(net.IP(buf[4:8]).String(), strconv.Itoa(int(binary.BigEndian.Uint16(buf[8:10]))))
				target, err := net.Dial("tcp", addr)
				if err != nil {
					conn.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
					return
				}
				conn.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
				tunnels.Add(1)
				go func() { io.Copy(conn, target); conn.Close() }()
				io.Copy(target, conn)
				target.Close()
			}()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

func TestProxy(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	var httpTunnels, socksTunnels atomic.Int32
	hpPort := sshtest.HTTPProxy(t, &httpTunnels)
	spPort := socks5Proxy(t, &socksTunnels)

	cfg := baseConfig(s)
	cfg.Proxy = &commssh.Proxy{Scheme: "http", Host: "127.0.0.1", Port: hpPort, UserName: "bob", UserPassword: "pw"}
	c, out := connect(t, cfg)
	want := "Using configured proxy host...\n  ProxyHost: 127.0.0.1\n  ProxyPort: " + strconv.Itoa(hpPort) + "\n  ProxyUserName: bob\n  ProxyUserPassword: true\n"
	if len(out) != 3 || out[1] != want {
		t.Errorf("wrong connect output %q", out)
	}
	if got, err := run(t, c, "echo via http"); err != nil || got != "via http\n" {
		t.Errorf("got %q, %v", got, err)
	}
	if httpTunnels.Load() != 1 {
		t.Errorf("%d tunnels through the HTTP proxy, want 1", httpTunnels.Load())
	}

	// Through a SOCKS5 proxy to a bastion, and from the bastion on.
	cfg = baseConfig(s)
	cfg.Proxy = &commssh.Proxy{Scheme: "socks5", Host: "127.0.0.1", Port: spPort}
	cfg.Bastion = &commssh.Bastion{Host: s.Host, Port: s.Port, User: s.User, PrivateKey: s.UserKey}
	c, _ = connect(t, cfg)
	if got, err := run(t, c, "echo via socks"); err != nil || got != "via socks\n" {
		t.Errorf("got %q, %v", got, err)
	}
	if socksTunnels.Load() != 1 {
		t.Errorf("%d tunnels through the SOCKS5 proxy, want 1", socksTunnels.Load())
	}

	tests := map[string]struct {
		proxy commssh.Proxy
		want  string
	}{
		"wrong password": {commssh.Proxy{Scheme: "http", Host: "127.0.0.1", Port: hpPort, UserName: "bob", UserPassword: "no"},
			"timeout - last error: Error connecting to proxy: 407 Proxy Authentication Required"},
		"unknown scheme": {commssh.Proxy{Scheme: "ftp", Host: "127.0.0.1", Port: hpPort},
			"timeout - last error: proxy: unknown scheme: ftp"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := baseConfig(s)
			cfg.Proxy, cfg.Timeout = &tc.proxy, refusalTimeout
			c, err := commssh.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Connect(context.Background(), nil); err == nil || err.Error() != tc.want {
				t.Errorf("wrong error\nwant: %s\ngot:  %v", tc.want, err)
			}
		})
	}
}
