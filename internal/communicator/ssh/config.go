package ssh

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// DefaultScriptPath is where remote-exec uploads its scripts unless the
// connection says otherwise; %RAND% becomes a random number.
const DefaultScriptPath = "/tmp/terraform_%RAND%.sh"

// DefaultTimeout is how long Connect retries when the connection sets no
// valid timeout.
const DefaultTimeout = 5 * time.Minute

// Config is what a connection block says about an SSH connection, with
// Terraform's defaults applied.
type Config struct {
	Host string
	Port int
	User string
	// Password authenticates with the password and keyboard-interactive
	// methods when not empty.
	Password string
	// PrivateKey is a PEM private key; Certificate, an OpenSSH
	// certificate for it in authorized_keys format.
	PrivateKey  string
	Certificate string
	// Agent uses the agent at AgentSocket (SSH_AUTH_SOCK); AgentIdentity,
	// when set, prefers the agent's key whose comment or file it names
	// (relative to WorkDir).
	Agent         bool
	AgentSocket   string
	AgentIdentity string
	// WorkDir is the absolute working directory relative file names are
	// in; empty means the process's.
	WorkDir string
	// HostKey is the host's public key, or a certificate authority's key
	// that signed the host's certificate, in authorized_keys format.
	// Empty accepts any host key.
	HostKey        string
	TargetPlatform string
	Timeout        time.Duration
	ScriptPath     string

	// Bastion, when not nil, is the host the connection goes through.
	Bastion *Bastion
	// Proxy, when not nil, is the proxy the first hop goes through.
	Proxy *Proxy
}

// Bastion is a jump host: the connection to the target is a TCP
// forwarding over an SSH connection to it.
type Bastion struct {
	Host        string
	Port        int
	User        string
	Password    string
	PrivateKey  string
	Certificate string
	HostKey     string
}

// Target platforms.
const (
	TargetPlatformUnix    = "unix"
	TargetPlatformWindows = "windows"
)

// Describe returns what remote-exec prints before each attempt to
// connect, as Terraform prints it: the settings, with secrets reduced to
// whether they are set. The bastion part, when there is one, is the
// second element.
func (c *Config) Describe() []string {
	var b strings.Builder
	fmt.Fprintf(&b, "Connecting to remote host via SSH...\n")
	fmt.Fprintf(&b, "  Host: %s\n", c.Host)
	fmt.Fprintf(&b, "  User: %s\n", c.User)
	fmt.Fprintf(&b, "  Password: %t\n", c.Password != "")
	fmt.Fprintf(&b, "  Private key: %t\n", c.PrivateKey != "")
	fmt.Fprintf(&b, "  Certificate: %t\n", c.Certificate != "")
	fmt.Fprintf(&b, "  SSH Agent: %t\n", c.Agent)
	fmt.Fprintf(&b, "  Checking Host Key: %t\n", c.HostKey != "")
	fmt.Fprintf(&b, "  Target Platform: %s\n", c.TargetPlatform)
	out := []string{b.String()}
	if bh := c.Bastion; bh != nil {
		b.Reset()
		fmt.Fprintf(&b, "Using configured bastion host...\n")
		fmt.Fprintf(&b, "  Host: %s\n", bh.Host)
		fmt.Fprintf(&b, "  User: %s\n", bh.User)
		fmt.Fprintf(&b, "  Password: %t\n", bh.Password != "")
		fmt.Fprintf(&b, "  Private key: %t\n", bh.PrivateKey != "")
		fmt.Fprintf(&b, "  Certificate: %t\n", bh.Certificate != "")
		fmt.Fprintf(&b, "  SSH Agent: %t\n", c.Agent)
		fmt.Fprintf(&b, "  Checking Host Key: %t\n", bh.HostKey != "")
		out = append(out, b.String())
	}
	if p := c.Proxy; p != nil {
		b.Reset()
		fmt.Fprintf(&b, "Using configured proxy host...\n")
		fmt.Fprintf(&b, "  ProxyHost: %s\n", p.Host)
		fmt.Fprintf(&b, "  ProxyPort: %d\n", p.Port)
		fmt.Fprintf(&b, "  ProxyUserName: %s\n", p.UserName)
		fmt.Fprintf(&b, "  ProxyUserPassword: %t\n", p.UserPassword != "")
		out = append(out, b.String())
	}
	return out
}

// NewScriptPath returns the path to upload a script to: ScriptPath, or
// DefaultScriptPath, with each %RAND% replaced by a random number.
func (c *Config) NewScriptPath() string {
	p := c.ScriptPath
	if p == "" {
		p = DefaultScriptPath
	}
	return strings.ReplaceAll(p, "%RAND%", strconv.FormatInt(int64(rand.Int32()), 10))
}
