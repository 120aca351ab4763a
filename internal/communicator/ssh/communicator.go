package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/net/proxy"
)

// dialTimeout bounds each TCP connection attempt; Connect retries until
// the connection's own timeout.
const dialTimeout = 15 * time.Second

// Communicator is a connection to a remote host. Connect it, then run
// commands and upload files; Disconnect when done. It is not safe for
// concurrent use.
type Communicator struct {
	cfg Config

	client  *ssh.Client
	bastion *ssh.Client
	agent   net.Conn
	// forwardAgent asks each session to forward the agent.
	forwardAgent bool
}

// New returns a Communicator for cfg. It checks the keys, certificates
// and host keys of cfg and returns their first error.
func New(cfg Config) (*Communicator, error) {
	c := &Communicator{cfg: cfg}
	if _, err := c.clientConfig(cfg.User, cfg.Password, cfg.PrivateKey, cfg.Certificate, cfg.HostKey, nil); err != nil {
		return nil, err
	}
	if b := cfg.Bastion; b != nil {
		if _, err := c.clientConfig(b.User, b.Password, b.PrivateKey, b.Certificate, b.HostKey, nil); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Config returns the communicator's configuration.
func (c *Communicator) Config() Config { return c.cfg }

// clientConfig builds the SSH client configuration for one hop. The
// agent's keys come from ag when it is not nil.
func (c *Communicator) clientConfig(user, password, privateKey, certificate, hostKey string, ag agent.ExtendedAgent) (*ssh.ClientConfig, error) {
	hk, err := hostKeyCallback(hostKey)
	if err != nil {
		return nil, err
	}
	var auth []ssh.AuthMethod
	if privateKey != "" {
		s, err := signer(privateKey, certificate)
		if err != nil {
			return nil, err
		}
		auth = append(auth, ssh.PublicKeys(s))
	}
	if ag != nil {
		identity, workDir := c.cfg.AgentIdentity, c.cfg.WorkDir
		auth = append(auth, ssh.PublicKeysCallback(func() ([]ssh.Signer, error) {
			return agentSigners(ag, identity, workDir)
		}))
	}
	if password != "" {
		auth = append(auth, ssh.Password(password), ssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
			answers := make([]string, len(questions))
			for i := range answers {
				answers[i] = password
			}
			return answers, nil
		}))
	}
	return &ssh.ClientConfig{User: user, Auth: auth, HostKeyCallback: hk, Timeout: dialTimeout}, nil
}

// Connect connects to the host, retrying with growing delays (1s, 2s,
// 4s... at most 20s apart) until it succeeds or the configured timeout
// passes. Before each attempt it sends output the connection's settings,
// as Describe returns them, when output is not nil, and "Connected!"
// once connected. The error after a timeout repeats the last attempt's.
func (c *Communicator) Connect(ctx context.Context, output func(string)) error {
	timeout := c.cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := retry(ctx, func() error {
		if output != nil {
			for _, msg := range c.cfg.Describe() {
				output(msg)
			}
		}
		return c.connect(ctx)
	})
	if err != nil {
		return err
	}
	if output != nil {
		output("Connected!")
	}
	return nil
}

// fatalError is an error retrying cannot fix.
type fatalError struct{ error }

// retryDelays are the initial and largest delay between two attempts.
const (
	retryInitialDelay = time.Second
	retryMaxDelay     = 20 * time.Second
)

// retry calls f until it succeeds, fails with a fatalError or ctx ends.
// The error after ctx ends says why and repeats f's last error.
func retry(ctx context.Context, f func() error) error {
	var (
		mu      sync.Mutex
		lastErr error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		delay := time.Duration(0)
		for {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			err := f()
			var fatal fatalError
			isFatal := errors.As(err, &fatal)
			if isFatal {
				err = fatal.error
			}
			mu.Lock()
			lastErr = err
			mu.Unlock()
			if err == nil || isFatal {
				return
			}
			delay = min(max(2*delay, retryInitialDelay), retryMaxDelay)
		}
	}()
	select {
	case <-ctx.Done():
	case <-done:
	}
	mu.Lock()
	defer mu.Unlock()
	switch ctx.Err() {
	case context.Canceled:
		return fmt.Errorf("interrupted - last error: %v", lastErr)
	case context.DeadlineExceeded:
		return fmt.Errorf("timeout - last error: %v", lastErr)
	}
	return lastErr
}

// connect makes one attempt to connect, through the bastion host when
// there is one.
func (c *Communicator) connect(ctx context.Context) error {
	c.Disconnect()
	var ag agent.ExtendedAgent
	if c.cfg.Agent {
		conn, err := agentConn(c.cfg.AgentSocket)
		if err != nil {
			return err
		}
		if conn != nil {
			c.agent = conn
			ag = agent.NewClient(conn)
		}
	}
	cfg, err := c.clientConfig(c.cfg.User, c.cfg.Password, c.cfg.PrivateKey, c.cfg.Certificate, c.cfg.HostKey, ag)
	if err != nil {
		return fatalError{err}
	}
	addr := net.JoinHostPort(c.cfg.Host, strconv.Itoa(c.cfg.Port))
	var conn net.Conn
	if b := c.cfg.Bastion; b != nil {
		bcfg, err := c.clientConfig(b.User, b.Password, b.PrivateKey, b.Certificate, b.HostKey, ag)
		if err != nil {
			return fatalError{err}
		}
		baddr := net.JoinHostPort(b.Host, strconv.Itoa(b.Port))
		bconn, err := c.dial(ctx, baddr)
		if err != nil {
			return err
		}
		bc, chans, reqs, err := ssh.NewClientConn(bconn, baddr, bcfg)
		if err != nil {
			bconn.Close()
			return fmt.Errorf("SSH authentication failed (%s@%s): %w", b.User, baddr, err)
		}
		c.bastion = ssh.NewClient(bc, chans, reqs)
		if conn, err = c.bastion.DialContext(ctx, "tcp", addr); err != nil {
			return fmt.Errorf("Error connecting to target through the bastion host: %w", err)
		}
	} else if conn, err = c.dial(ctx, addr); err != nil {
		return err
	}
	cc, chans, reqs, err := ssh.NewClientConn(conn, addr, cfg)
	if err != nil {
		conn.Close()
		return fmt.Errorf("SSH authentication failed (%s@%s): %w", c.cfg.User, addr, err)
	}
	c.client = ssh.NewClient(cc, chans, reqs)
	if ag != nil && c.agent != nil {
		// Forward the agent, as Terraform does when it uses one, so that
		// scripts can reach further hosts with the same keys.
		if err := agent.ForwardToAgent(c.client, ag); err == nil {
			c.forwardAgent = true
		}
	}
	return nil
}

// dial connects to the first hop, through the proxy when there is one.
func (c *Communicator) dial(ctx context.Context, addr string) (net.Conn, error) {
	d, err := c.cfg.Proxy.dialer()
	if err != nil {
		return nil, err
	}
	if cd, ok := d.(proxy.ContextDialer); ok {
		return cd.DialContext(ctx, "tcp", addr)
	}
	return d.Dial("tcp", addr)
}

// Disconnect closes the connection, when there is one.
func (c *Communicator) Disconnect() {
	if c.client != nil {
		c.client.Close()
		c.client = nil
	}
	if c.bastion != nil {
		c.bastion.Close()
		c.bastion = nil
	}
	if c.agent != nil {
		c.agent.Close()
		c.agent = nil
	}
	c.forwardAgent = false
}

// ExitError is the error of a command that ran and exited with a status
// other than 0.
type ExitError struct {
	Status int
	// Signal is the signal that ended the command, when one did.
	Signal string
}

func (e *ExitError) Error() string {
	if e.Signal != "" {
		return fmt.Sprintf("Process exited with status %d from signal %s", e.Status, e.Signal)
	}
	return fmt.Sprintf("Process exited with status %d", e.Status)
}

// Run runs command on the connected host in a terminal, as Terraform
// does, sending what it prints to stdout and stderr (a terminal merges
// them into stdout); stdout and stderr must be safe for concurrent use
// when they are the same writer. Its input is empty. It returns an *ExitError when the command fails.
// Cancelling ctx closes the session.
func (c *Communicator) Run(ctx context.Context, command string, stdout, stderr io.Writer) error {
	if c.client == nil {
		return errors.New("not connected")
	}
	s, err := c.client.NewSession()
	if err != nil {
		return fmt.Errorf("failed to open SSH session: %w", err)
	}
	defer s.Close()
	if c.forwardAgent {
		// Best effort: the host may refuse it.
		_ = agent.RequestAgentForwarding(s)
	}
	modes := ssh.TerminalModes{ssh.ECHO: 0, ssh.TTY_OP_ISPEED: 14400, ssh.TTY_OP_OSPEED: 14400}
	if err := s.RequestPty("xterm", 80, 40, modes); err != nil {
		return fmt.Errorf("failed to request a terminal: %w", err)
	}
	s.Stdout, s.Stderr = stdout, stderr
	if err := ctx.Err(); err != nil {
		return err // cancelled while the session opened: start nothing
	}
	if err := s.Start(strings.TrimSpace(command) + "\n"); err != nil {
		return err
	}
	return wait(ctx, s)
}

// wait waits for the session's command, closing the session when ctx
// ends first.
func wait(ctx context.Context, s *ssh.Session) error {
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		return exitError(err)
	case <-ctx.Done():
		// Best effort: not every server honours signals, and one may
		// keep the command running past the close of its session.
		_ = s.Signal(ssh.SIGKILL)
		s.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		return ctx.Err()
	}
}

// exitError turns the session's error for a failed command into an
// *ExitError.
func exitError(err error) error {
	var ee *ssh.ExitError
	if errors.As(err, &ee) {
		return &ExitError{Status: ee.ExitStatus(), Signal: ee.Signal()}
	}
	var missing *ssh.ExitMissingError
	if errors.As(err, &missing) {
		return &ExitError{Status: -1}
	}
	return err
}
