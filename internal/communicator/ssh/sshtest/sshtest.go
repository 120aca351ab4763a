// Package sshtest starts a real OpenSSH server on loopback for tests of
// the SSH communicator and the provisioners that use it. Only tests
// import it.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// Server is a running sshd that accepts the current user with UserKey,
// or with a key certified by UserCA.
type Server struct {
	Host string
	Port int
	User string
	// Dir is the server's temporary directory.
	Dir string
	// UserKey is the user's private key (PEM), UserKeyPath its file.
	UserKey     string
	UserKeyPath string
	// HostKey is the server's public host key in authorized_keys format.
	HostKey string
	// HostCA is the public key, in authorized_keys format, of the
	// authority that signed the host certificate, when Options asked for
	// one.
	HostCA string
	// UserCA signs user certificates the server trusts.
	UserCA ssh.Signer
}

// Options configure Start.
type Options struct {
	// HostCertificate makes the server present a host certificate signed
	// by HostCA.
	HostCertificate bool
}

// SSHD returns the path of the sshd binary, skipping the test when there
// is none outside CI; in CI (CI set) its absence fails the test.
func SSHD(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("sshd"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("sshd not found: install openssh-server (.ci/run does) to run the SSH provisioner tests")
	}
	t.Skip("sshd not found: install openssh-server to run the SSH provisioner tests")
	return ""
}

// Start starts sshd on a free loopback port and stops it when the test
// ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	sshd := SSHD(t)
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if os.Getuid() == 0 {
		// sshd's privilege separation needs its empty directory.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("creating /run/sshd: %v", err)
		}
	}
	s := &Server{Host: "127.0.0.1", User: u.Username, Dir: dir}

	hostSigner, hostPEM := newKey(t)
	write(t, filepath.Join(dir, "host_key"), hostPEM, 0o600)
	s.HostKey = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(hostSigner.PublicKey())))
	userSigner, userPEM := newKey(t)
	s.UserKey, s.UserKeyPath = string(userPEM), filepath.Join(dir, "user_key")
	write(t, s.UserKeyPath, userPEM, 0o600)
	write(t, filepath.Join(dir, "authorized_keys"), ssh.MarshalAuthorizedKey(userSigner.PublicKey()), 0o600)
	s.UserCA, _ = newKey(t)
	write(t, filepath.Join(dir, "user_ca.pub"), ssh.MarshalAuthorizedKey(s.UserCA.PublicKey()), 0o644)

	cfg := []string{
		"HostKey " + filepath.Join(dir, "host_key"),
		"AuthorizedKeysFile " + filepath.Join(dir, "authorized_keys"),
		"TrustedUserCAKeys " + filepath.Join(dir, "user_ca.pub"),
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		"PermitRootLogin yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"UsePAM no",
		"StrictModes no",
		"AllowTcpForwarding yes",
		"AllowAgentForwarding yes",
		"LogLevel ERROR",
		// Bash sources ~/.bashrc for commands sshd starts unless it runs
		// nested: what the machine's user has there is not the tests'
		// business.
		"SetEnv SHLVL=1",
		// Tests connect many times at once: sshd's default drops
		// connections beyond 10 unauthenticated ones.
		"MaxStartups 200",
		"MaxSessions 100",
	}
	if opts.HostCertificate {
		ca, _ := newKey(t)
		s.HostCA = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(ca.PublicKey())))
		cert := &ssh.Certificate{
			Key: hostSigner.PublicKey(), CertType: ssh.HostCert, KeyId: "test host",
			ValidPrincipals: []string{"127.0.0.1"}, ValidBefore: ssh.CertTimeInfinity,
		}
		if err := cert.SignCert(rand.Reader, ca); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "host_key-cert.pub"), ssh.MarshalAuthorizedKey(cert), 0o644)
		cfg = append(cfg, "HostCertificate "+filepath.Join(dir, "host_key-cert.pub"))
	}
	write(t, filepath.Join(dir, "sshd_config"), []byte(strings.Join(cfg, "\n")+"\n"), 0o600)

	for attempt := 0; ; attempt++ {
		s.Port = freePort(t)
		cmd := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"), "-p", strconv.Itoa(s.Port), "-o", "ListenAddress=127.0.0.1")
		logf, err := os.Create(filepath.Join(dir, "sshd.log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting sshd: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); logf.Close(); close(exited) }()
		if waitListening(s.Port, exited) {
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			return s
		}
		cmd.Process.Kill()
		<-exited
		if attempt == 2 {
			log, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
			t.Fatalf("sshd did not start: %s", log)
		}
	}
}

// Cert returns a user certificate for the user's key signed by UserCA,
// in authorized_keys format.
func (s *Server) Cert(t testing.TB) string {
	t.Helper()
	return s.CertFor(t, s.UserKey)
}

// CertFor returns a user certificate for keyPEM, a private key, signed
// by UserCA, in authorized_keys format.
func (s *Server) CertFor(t testing.TB, keyPEM string) string {
	t.Helper()
	signer, err := ssh.ParsePrivateKey([]byte(keyPEM))
	if err != nil {
		t.Fatal(err)
	}
	cert := &ssh.Certificate{
		Key: signer.PublicKey(), CertType: ssh.UserCert, KeyId: "test user",
		ValidPrincipals: []string{s.User}, ValidBefore: ssh.CertTimeInfinity,
		Permissions: ssh.Permissions{Extensions: map[string]string{"permit-pty": ""}},
	}
	if err := cert.SignCert(rand.Reader, s.UserCA); err != nil {
		t.Fatal(err)
	}
	return string(ssh.MarshalAuthorizedKey(cert))
}

// NewKey returns a new ed25519 key: a signer and its PEM encoding.
func NewKey(t testing.TB) (ssh.Signer, string) {
	s, p := newKey(t)
	return s, string(p)
}

func newKey(t testing.TB) (ssh.Signer, []byte) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer, pem.EncodeToMemory(block)
}

func write(t testing.TB, name string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, data, mode); err != nil {
		t.Fatal(err)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits up to 10s for something to accept connections on
// port, giving up when exited closes.
func waitListening(port int, exited chan struct{}) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// Agent serves an in-memory SSH agent holding keyPEM, with comment, on a
// socket that SSH_AUTH_SOCK names for the rest of the test.
func Agent(t testing.TB, keyPEM, comment string) {
	t.Helper()
	t.Setenv("SSH_AUTH_SOCK", AgentSocket(t, keyPEM, comment))
}

// AgentSocket serves an in-memory SSH agent holding keyPEM, with comment,
// for the rest of the test, and returns its socket's path for
// SSH_AUTH_SOCK: unlike Agent, it leaves the process's environment alone,
// for parallel tests that give it to the processes they start.
func AgentSocket(t testing.TB, keyPEM, comment string) string {
	t.Helper()
	raw, err := ssh.ParseRawPrivateKey([]byte(keyPEM))
	if err != nil {
		t.Fatal(err)
	}
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: raw, Comment: comment}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	l, err := net.Listen("unix", sock)
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
			go func() { agent.ServeAgent(keyring, conn); conn.Close() }()
		}
	}()
	return sock
}
