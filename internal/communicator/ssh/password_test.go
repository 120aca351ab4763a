package ssh_test

import (
	"context"
	"encoding/binary"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	xssh "golang.org/x/crypto/ssh"

	commssh "github.com/strata-dev/strata/internal/communicator/ssh"
	"github.com/strata-dev/strata/internal/communicator/ssh/sshtest"
)

// passwordServer is an in-process SSH server that accepts user "u" with
// password "secret", by the password method when kbd is false and by
// keyboard-interactive when it is true, and runs each exec request with
// /bin/sh. The system's sshd cannot check a password without a user
// account to check it against.
func passwordServer(t *testing.T, kbd bool) int {
	t.Helper()
	hostKey, _ := sshtest.NewKey(t)
	cfg := &xssh.ServerConfig{}
	if kbd {
		cfg.KeyboardInteractiveCallback = func(c xssh.ConnMetadata, client xssh.KeyboardInteractiveChallenge) (*xssh.Permissions, error) {
			answers, err := client("", "", []string{"Password: ", "Again: "}, []bool{false, false})
			if err == nil && c.User() == "u" && len(answers) == 2 && answers[0] == "secret" && answers[1] == "secret" {
				return nil, nil
			}
			return nil, xssh.ErrNoAuth
		}
	} else {
		cfg.PasswordCallback = func(c xssh.ConnMetadata, pw []byte) (*xssh.Permissions, error) {
			if c.User() == "u" && string(pw) == "secret" {
				return nil, nil
			}
			return nil, xssh.ErrNoAuth
		}
	}
	cfg.AddHostKey(hostKey)
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
			go serveConn(conn, cfg)
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

func serveConn(conn net.Conn, cfg *xssh.ServerConfig) {
	_, chans, reqs, err := xssh.NewServerConn(conn, cfg)
	if err != nil {
		conn.Close()
		return
	}
	go xssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(xssh.UnknownChannelType, "no")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go func() {
			defer ch.Close()
			for req := range chReqs {
				switch req.Type {
				case "exec":
					req.Reply(true, nil)
					n := binary.BigEndian.Uint32(req.Payload[:4])
					cmd := exec.Command("/bin/sh", "-c", string(req.Payload[4:4+n]))
					cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
					status := uint32(0)
					if err := cmd.Run(); err != nil {
						status = 1
					}
					ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
					return
				default:
					req.Reply(req.Type == "pty-req", nil)
				}
			}
		}()
	}
}

func TestPassword(t *testing.T) {
	for name, kbd := range map[string]bool{"password": false, "keyboard-interactive": true} {
		t.Run(name, func(t *testing.T) {
			port := passwordServer(t, kbd)
			cfg := commssh.Config{Host: "127.0.0.1", Port: port, User: "u", Password: "secret", TargetPlatform: "unix", Timeout: 5 * time.Second}
			c, out := connect(t, cfg)
			if !strings.Contains(out[0], "  Password: true\n  Private key: false\n") {
				t.Errorf("wrong connect output %q", out[0])
			}
			if got, err := run(t, c, "echo $((6 * 7))"); err != nil || got != "42\n" {
				t.Errorf("got %q, %v", got, err)
			}

			cfg.Password, cfg.Timeout = "wrong", refusalTimeout
			bad, err := commssh.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = bad.Connect(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), "SSH authentication failed (u@127.0.0.1:") || !strings.Contains(err.Error(), "unable to authenticate") {
				t.Errorf("wrong error for a wrong password: %v", err)
			}
		})
	}
}
