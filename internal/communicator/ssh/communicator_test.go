package ssh_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	xssh "golang.org/x/crypto/ssh"

	commssh "github.com/strata-dev/strata/internal/communicator/ssh"
	"github.com/strata-dev/strata/internal/communicator/ssh/sshtest"
)

// refusalTimeout bounds a connection expected to be refused (Connect
// retries until its timeout): long enough for one attempt on a loaded
// machine (half a second was not, in CI, nor were 3 s at a load of 30).
const refusalTimeout = 5 * time.Second

// connectTimeout bounds a connection expected to succeed: Connect returns
// as soon as it does, so only a broken test waits this long.
const connectTimeout = time.Minute

func baseConfig(s *sshtest.Server) commssh.Config {
	return commssh.Config{
		Host: s.Host, Port: s.Port, User: s.User, PrivateKey: s.UserKey,
		TargetPlatform: commssh.TargetPlatformUnix, Timeout: 10 * time.Second,
	}
}

func connect(t *testing.T, cfg commssh.Config) (*commssh.Communicator, []string) {
	t.Helper()
	c, err := commssh.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var out []string
	if err := c.Connect(context.Background(), func(s string) { out = append(out, s) }); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(c.Disconnect)
	return c, out
}

// syncBuffer is a bytes.Buffer safe for the two goroutines that copy a
// command's stdout and stderr.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func run(t *testing.T, c *commssh.Communicator, cmd string) (string, error) {
	t.Helper()
	var out syncBuffer
	err := c.Run(context.Background(), cmd, &out, &out)
	return strings.ReplaceAll(out.buf.String(), "\r\n", "\n"), err
}

func TestConnectRunUpload(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	c, out := connect(t, baseConfig(s))
	want := []string{"Connecting to remote host via SSH...\n  Host: 127.0.0.1\n  User: " + s.User +
		"\n  Password: false\n  Private key: true\n  Certificate: false\n  SSH Agent: false\n  Checking Host Key: false\n  Target Platform: unix\n", "Connected!"}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("wrong connect output (-want +got)\n%s", diff)
	}

	got, err := run(t, c, "echo out; echo err >&2; test -t 0 && echo terminal")
	if err != nil {
		t.Fatal(err)
	}
	if got != "out\nerr\nterminal\n" {
		t.Errorf("wrong output %q", got)
	}
	_, err = run(t, c, "exit 3")
	var ee *commssh.ExitError
	if !errors.As(err, &ee) || ee.Status != 3 || err.Error() != "Process exited with status 3" {
		t.Errorf("wrong error for exit 3: %#v", err)
	}

	dst := t.TempDir()
	if err := c.Upload(context.Background(), dst+"/f.txt", strings.NewReader("hello\n")); err != nil {
		t.Fatal(err)
	}
	// A destination ending in a slash names a file inside it, as in
	// Terraform; when that directory does not exist, the file takes its
	// name.
	if err := os.Mkdir(dst+"/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dst + "/sub/", dst + "/missing/"} {
		if err := c.Upload(context.Background(), d, strings.NewReader("x")); err != nil {
			t.Fatal(err)
		}
	}
	script := dst + "/script.sh"
	if err := c.UploadScript(context.Background(), script, strings.NewReader("echo from script\n")); err != nil {
		t.Fatal(err)
	}
	got, err = run(t, c, script)
	if err != nil || got != "from script\n" {
		t.Errorf("running the script: %q, %v", got, err)
	}
	wantFiles := map[string]string{
		"f.txt":     "-rw-r--r-- hello\n",
		"sub/sub":   "-rw-r--r-- x",
		"missing":   "-rw-r--r-- x",
		"script.sh": "-rwxrwxrwx #!/bin/sh\necho from script\n",
	}
	if diff := cmp.Diff(wantFiles, tree(t, dst)); diff != "" {
		t.Errorf("wrong files (-want +got)\n%s", diff)
	}
}

// tree returns the mode and content of each file under dir.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fi.Mode().String() + " " + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUploadDir(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	c, _ := connect(t, baseConfig(s))
	src := filepath.Join(t.TempDir(), "src")
	for name, content := range map[string]string{"a.txt": "a", "sub/b.sh": "b"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o750); err != nil {
			t.Fatal(err)
		}
	}
	dst := t.TempDir()
	if err := os.Mkdir(dst+"/exists", 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, u := range [][2]string{{dst + "/new", src}, {dst + "/exists", src}, {dst + "/exists", src + "/"}} {
		if err := c.UploadDir(ctx, u[0], u[1]); err != nil {
			t.Fatalf("UploadDir(%q, %q): %v", u[0], u[1], err)
		}
	}
	want := map[string]string{
		"new/a.txt":        "-rw-r--r-- a",
		"new/sub/b.sh":     "-rw-r--r-- b",
		"exists/src/a.txt": "-rw-r--r-- a", "exists/src/sub/b.sh": "-rw-r--r-- b",
		"exists/a.txt": "-rw-r--r-- a", "exists/sub/b.sh": "-rw-r--r-- b",
	}
	if diff := cmp.Diff(want, tree(t, dst)); diff != "" {
		t.Errorf("wrong files (-want +got)\n%s", diff)
	}
	// With a trailing slash the destination must exist.
	err := c.UploadDir(ctx, dst+"/missing", src+"/")
	if err == nil || err.Error() != "Process exited with status 1" {
		t.Errorf("wrong error for a missing destination: %v", err)
	}
}

func TestHostKey(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	other, _ := sshtest.NewKey(t)
	otherKey := string(xssh.MarshalAuthorizedKey(other.PublicKey()))
	tests := map[string]struct {
		hostKey string
		wantErr string
	}{
		"any":      {"", ""},
		"match":    {s.HostKey, ""},
		"mismatch": {otherKey, "timeout - last error: SSH authentication failed (" + s.User + "@127.0.0.1:PORT): ssh: handshake failed: knownhosts: key mismatch"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := baseConfig(s)
			cfg.HostKey, cfg.Timeout = tc.hostKey, connectTimeout
			if tc.wantErr != "" {
				cfg.Timeout = refusalTimeout
			}
			c, err := commssh.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Disconnect()
			err = c.Connect(context.Background(), nil)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), ":"+itoa(s.Port)+")", ":PORT)")
			}
			if got != tc.wantErr {
				t.Errorf("wrong error\nwant: %s\ngot:  %s", tc.wantErr, got)
			}
		})
	}
}

func TestHostCertificate(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{HostCertificate: true})
	cfg := baseConfig(s)
	cfg.HostKey = s.HostCA
	c, out := connect(t, cfg)
	if !strings.Contains(out[0], "Checking Host Key: true") {
		t.Errorf("wrong connect output %q", out[0])
	}
	if got, err := run(t, c, "echo ok"); err != nil || got != "ok\n" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestUserCertificate(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	// A key the server does not list is accepted with a certificate
	// from the authority it trusts.
	_, key := sshtest.NewKey(t)
	srv := *s
	srv.UserKey = key
	cfg := baseConfig(&srv)
	cfg.Timeout = refusalTimeout
	c, err := commssh.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("connected without a certificate: %v", err)
	}
	cfg.Certificate = srv.Cert(t)
	cfg.Timeout = connectTimeout
	c2, out := connect(t, cfg)
	if !strings.Contains(out[0], "Certificate: true") {
		t.Errorf("wrong connect output %q", out[0])
	}
	if got, err := run(t, c2, "echo ok"); err != nil || got != "ok\n" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestAgentAndBastion(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	sshtest.Agent(t, s.UserKey, "test-key")
	cfg := baseConfig(s)
	cfg.PrivateKey, cfg.Agent, cfg.AgentIdentity = "", true, "test-key"
	cfg.AgentSocket = os.Getenv("SSH_AUTH_SOCK") // where sshtest.Agent listens
	// The bastion is the same server: the target connection is
	// forwarded through a first one.
	cfg.Bastion = &commssh.Bastion{Host: s.Host, Port: s.Port, User: s.User, HostKey: s.HostKey}
	c, out := connect(t, cfg)
	want := []string{
		"Connecting to remote host via SSH...\n  Host: 127.0.0.1\n  User: " + s.User +
			"\n  Password: false\n  Private key: false\n  Certificate: false\n  SSH Agent: true\n  Checking Host Key: false\n  Target Platform: unix\n",
		"Using configured bastion host...\n  Host: 127.0.0.1\n  User: " + s.User +
			"\n  Password: false\n  Private key: false\n  Certificate: false\n  SSH Agent: true\n  Checking Host Key: true\n",
		"Connected!",
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("wrong connect output (-want +got)\n%s", diff)
	}
	// The agent is forwarded: the session sees a socket for it.
	got, err := run(t, c, `test -S "$SSH_AUTH_SOCK" && echo forwarded`)
	if err != nil || got != "forwarded\n" {
		t.Errorf("got %q, %v", got, err)
	}

	cfg.AgentIdentity = "nobody"
	cfg.Timeout = refusalTimeout
	cfg.Bastion = nil
	c3, _ := commssh.New(cfg)
	if err := c3.Connect(context.Background(), nil); err == nil || !strings.Contains(err.Error(), `agent_identity "nobody"`) {
		t.Errorf("wrong error for an unknown identity: %v", err)
	}
}

func TestConnectRetriesUntilTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	_, key := sshtest.NewKey(t)
	c, err := commssh.New(commssh.Config{Host: "127.0.0.1", Port: port, User: "u", PrivateKey: key, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	attempts := 0
	start := time.Now()
	err = c.Connect(context.Background(), func(s string) { attempts++ })
	want := "timeout - last error: dial tcp 127.0.0.1:" + itoa(port) + ": connect: connection refused"
	if err == nil || err.Error() != want {
		t.Errorf("wrong error\nwant: %s\ngot:  %v", want, err)
	}
	// Attempts at 0s, 1s and 3s (the next would be at 7s), as Terraform
	// makes them.
	if attempts != 3 {
		t.Errorf("%d attempts, want 3", attempts)
	}
	if d := time.Since(start); d < 5*time.Second || d > 7*time.Second {
		t.Errorf("Connect took %s", d)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	if err := c.Connect(ctx, nil); err == nil || !strings.HasPrefix(err.Error(), "interrupted - last error: dial tcp") {
		t.Errorf("wrong error when interrupted: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	_, key := sshtest.NewKey(t)
	tests := map[string]struct {
		cfg  commssh.Config
		want string
	}{
		"garbage key":      {commssh.Config{PrivateKey: "garbage"}, "Failed to read ssh private key: no key found"},
		"garbage host key": {commssh.Config{PrivateKey: key, HostKey: "garbage"}, `knownhosts: invalid host_key "garbage": ssh: no key found`},
		"garbage cert":     {commssh.Config{PrivateKey: key, Certificate: "garbage"}, "Failed to parse ssh certificate: ssh: no key found"},
		"bastion key":      {commssh.Config{Bastion: &commssh.Bastion{PrivateKey: "garbage"}}, "Failed to read ssh private key: no key found"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := commssh.New(tc.cfg)
			if err == nil || err.Error() != tc.want {
				t.Errorf("wrong error\nwant: %s\ngot:  %v", tc.want, err)
			}
		})
	}
}

func TestNewScriptPath(t *testing.T) {
	seen := map[string]bool{}
	for range 5 {
		p := (&commssh.Config{}).NewScriptPath()
		if !strings.HasPrefix(p, "/tmp/terraform_") || !strings.HasSuffix(p, ".sh") || strings.Contains(p, "%") {
			t.Errorf("wrong default script path %q", p)
		}
		seen[p] = true
	}
	if len(seen) < 2 {
		t.Errorf("script paths are not random: %v", seen)
	}
	if got := (&commssh.Config{ScriptPath: "/x/fixed.sh"}).NewScriptPath(); got != "/x/fixed.sh" {
		t.Errorf("wrong script path %q", got)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestRunCancel(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	c, _ := connect(t, baseConfig(s))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	var out syncBuffer
	err := c.Run(ctx, "echo started; sleep 30", &out, &out)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("wrong error %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run returned %s after being cancelled", d)
	}
}
