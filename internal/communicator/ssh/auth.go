package ssh

//lint:file-ignore ST1005 errors users read, in Terraform's words

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// signer parses a PEM private key, certified by certificate when that is
// not empty.
func signer(privateKey, certificate string) (ssh.Signer, error) {
	block, _ := pem.Decode([]byte(privateKey))
	if block == nil {
		return nil, errors.New("Failed to read ssh private key: no key found")
	}
	if block.Headers["Proc-Type"] == "4,ENCRYPTED" {
		return nil, errors.New("Failed to read ssh private key: password protected keys are\nnot supported. Please decrypt the key prior to use.")
	}
	s, err := ssh.ParsePrivateKey([]byte(privateKey))
	if err != nil {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, errors.New("Failed to read ssh private key: password protected keys are\nnot supported. Please decrypt the key prior to use.")
		}
		return nil, fmt.Errorf("Failed to parse ssh private key: %s", err)
	}
	if certificate == "" {
		return s, nil
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(certificate))
	if err != nil {
		return nil, fmt.Errorf("Failed to parse ssh certificate: %s", err)
	}
	cert, ok := pub.(*ssh.Certificate)
	if !ok {
		return nil, errors.New("Failed to parse ssh certificate: not a certificate")
	}
	cs, err := ssh.NewCertSigner(cert, s)
	if err != nil {
		return nil, fmt.Errorf("Failed to create cert signer: %s", err)
	}
	return cs, nil
}

// agentConn connects to the agent at sock (SSH_AUTH_SOCK). It returns nil
// when there is none.
func agentConn(sock string) (net.Conn, error) {
	if sock == "" {
		return nil, nil
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("Error connecting to SSH_AUTH_SOCK: %v", err)
	}
	return conn, nil
}

// agentSigners returns the agent's keys, the one identity names first:
// identity is a key's comment or the path of its private or public key
// file (relative to workDir).
func agentSigners(ag agent.ExtendedAgent, identity, workDir string) ([]ssh.Signer, error) {
	signers, err := ag.Signers()
	if err != nil {
		return nil, fmt.Errorf("Error reading keys from the SSH agent: %v", err)
	}
	if identity == "" {
		return signers, nil
	}
	keys, err := ag.List()
	if err != nil {
		return nil, fmt.Errorf("Error reading keys from the SSH agent: %v", err)
	}
	var want []byte
	for _, f := range []string{identity, identity + ".pub"} {
		if workDir != "" && !filepath.IsAbs(f) {
			f = filepath.Join(workDir, f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if pub, _, _, _, err := ssh.ParseAuthorizedKey(data); err == nil {
			want = pub.Marshal()
			break
		}
		if s, err := ssh.ParsePrivateKey(data); err == nil {
			want = s.PublicKey().Marshal()
			break
		}
	}
	var first, rest []ssh.Signer
	for _, s := range signers {
		match := want != nil && bytes.Equal(s.PublicKey().Marshal(), want)
		for _, k := range keys {
			if k.Comment == identity && bytes.Equal(k.Marshal(), s.PublicKey().Marshal()) {
				match = true
			}
		}
		if match {
			first = append(first, s)
		} else {
			rest = append(rest, s)
		}
	}
	if len(first) == 0 {
		return nil, fmt.Errorf("no key in the SSH agent matches agent_identity %q", identity)
	}
	return append(first, rest...), nil
}

// hostKeyCallback checks the host key against want, a public key in
// authorized_keys format: the host's own key, or the key of the
// certificate authority that signed the host's certificate. Empty want
// accepts any key, as Terraform does.
func hostKeyCallback(want string) (ssh.HostKeyCallback, error) {
	if want == "" {
		return ssh.InsecureIgnoreHostKey(), nil
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(want))
	if err != nil {
		// A bare "TYPE BASE64" without newline is what most configurations
		// hold; anything else is an error worth showing as it is.
		return nil, fmt.Errorf("knownhosts: invalid host_key %q: %s", strings.TrimSpace(want), err)
	}
	match := func(k ssh.PublicKey) bool { return bytes.Equal(k.Marshal(), key.Marshal()) }
	checker := &ssh.CertChecker{
		IsHostAuthority: func(auth ssh.PublicKey, _ string) bool { return match(auth) },
		HostKeyFallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			if match(k) {
				return nil
			}
			return errors.New("knownhosts: key mismatch")
		},
	}
	return checker.CheckHostKey, nil
}
