package provisioners

//lint:file-ignore ST1005 errors users read, in Terraform's words

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	commssh "github.com/strata-dev/strata/internal/communicator/ssh"
	"github.com/strata-dev/strata/internal/configs/configschema"
)

// ConnectionSchema is the schema of a connection block: Terraform's,
// with the arguments of both the ssh and the winrm types, so that any
// configuration Terraform accepts decodes. strata connects over SSH
// only; Communicator refuses the rest.
var ConnectionSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"type":                {Type: cty.String, Optional: true},
	"host":                {Type: cty.String, Required: true},
	"port":                {Type: cty.Number, Optional: true},
	"user":                {Type: cty.String, Optional: true},
	"password":            {Type: cty.String, Optional: true},
	"timeout":             {Type: cty.String, Optional: true},
	"script_path":         {Type: cty.String, Optional: true},
	"private_key":         {Type: cty.String, Optional: true},
	"certificate":         {Type: cty.String, Optional: true},
	"host_key":            {Type: cty.String, Optional: true},
	"agent":               {Type: cty.Bool, Optional: true},
	"agent_identity":      {Type: cty.String, Optional: true},
	"target_platform":     {Type: cty.String, Optional: true},
	"bastion_host":        {Type: cty.String, Optional: true},
	"bastion_host_key":    {Type: cty.String, Optional: true},
	"bastion_port":        {Type: cty.Number, Optional: true},
	"bastion_user":        {Type: cty.String, Optional: true},
	"bastion_password":    {Type: cty.String, Optional: true},
	"bastion_private_key": {Type: cty.String, Optional: true},
	"bastion_certificate": {Type: cty.String, Optional: true},
	"proxy_scheme":        {Type: cty.String, Optional: true},
	"proxy_host":          {Type: cty.String, Optional: true},
	"proxy_port":          {Type: cty.Number, Optional: true},
	"proxy_user_name":     {Type: cty.String, Optional: true},
	"proxy_user_password": {Type: cty.String, Optional: true},
	// winrm only.
	"https":    {Type: cty.Bool, Optional: true},
	"insecure": {Type: cty.Bool, Optional: true},
	"use_ntlm": {Type: cty.Bool, Optional: true},
	"cacert":   {Type: cty.String, Optional: true},
}}

// ErrNoConnection is the error of a remote provisioner without a
// connection block, in Terraform's words.
var ErrNoConnection = errors.New("Missing connection configuration for provisioner.")

// SSHConfig decodes a connection block's value, conforming to
// ConnectionSchema, wholly known and unmarked, into an SSH configuration
// with Terraform's defaults: user root, port 22, the agent when
// SSH_AUTH_SOCK is set, a timeout of 5 minutes, bastion settings
// defaulting to the target's, and a proxy's scheme to http. It returns
// an error for a connection strata cannot make: another type than ssh.
//
// workDir is the working directory relative file names are in, environ
// the command's environment (nil: the process's), where SSH_AUTH_SOCK is.
func SSHConfig(conn cty.Value, workDir string, environ []string) (commssh.Config, error) {
	if conn.IsNull() {
		return commssh.Config{}, ErrNoConnection
	}
	str := func(name string) string {
		if v := conn.GetAttr(name); !v.IsNull() {
			return v.AsString()
		}
		return ""
	}
	num := func(name string) (int, error) {
		v := conn.GetAttr(name)
		if v.IsNull() {
			return 0, nil
		}
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != big.Exact || i < 0 || i > 65535 {
			return 0, fmt.Errorf("invalid %s %s: a port must be a whole number from 0 to 65535", name, bf.Text('f', -1))
		}
		return int(i), nil
	}
	switch t := str("type"); t {
	case "", "ssh":
	case "winrm":
		return commssh.Config{}, errors.New("connection type 'winrm' not supported: strata connects to remote hosts over SSH only")
	default:
		return commssh.Config{}, fmt.Errorf("connection type '%s' not supported", t)
	}
	cfg := commssh.Config{
		Host:           str("host"),
		User:           str("user"),
		Password:       str("password"),
		PrivateKey:     str("private_key"),
		Certificate:    str("certificate"),
		AgentIdentity:  str("agent_identity"),
		HostKey:        str("host_key"),
		TargetPlatform: str("target_platform"),
		ScriptPath:     str("script_path"),
		WorkDir:        workDir,
	}
	sock := envValue(environ, "SSH_AUTH_SOCK")
	cfg.Agent = sock != ""
	var err error
	if cfg.Port, err = num("port"); err != nil {
		return cfg, err
	}
	if cfg.Port == 0 {
		cfg.Port = 22
	}
	if cfg.User == "" {
		cfg.User = "root"
	}
	if v := conn.GetAttr("agent"); !v.IsNull() {
		cfg.Agent = v.True()
	}
	if cfg.Agent {
		cfg.AgentSocket = sock
	}
	switch cfg.TargetPlatform {
	case "":
		cfg.TargetPlatform = commssh.TargetPlatformUnix
	case commssh.TargetPlatformUnix, commssh.TargetPlatformWindows:
	default:
		return cfg, fmt.Errorf("target_platform for provisioner has to be either %s or %s", commssh.TargetPlatformUnix, commssh.TargetPlatformWindows)
	}
	if cfg.ScriptPath == "" && cfg.TargetPlatform == commssh.TargetPlatformWindows {
		cfg.ScriptPath = "C:/Windows/Temp/terraform_%RAND%.cmd"
	}
	// An invalid timeout is the default one, as in Terraform.
	cfg.Timeout = commssh.DefaultTimeout
	if d, err := time.ParseDuration(str("timeout")); err == nil && d > 0 {
		cfg.Timeout = d
	}
	if h := str("bastion_host"); h != "" {
		b := &commssh.Bastion{
			Host:        h,
			User:        str("bastion_user"),
			Password:    str("bastion_password"),
			PrivateKey:  str("bastion_private_key"),
			Certificate: str("bastion_certificate"),
			HostKey:     str("bastion_host_key"),
		}
		if b.Port, err = num("bastion_port"); err != nil {
			return cfg, err
		}
		if b.Port == 0 {
			b.Port = cfg.Port
		}
		if b.User == "" {
			b.User = cfg.User
		}
		if b.Password == "" {
			b.Password = cfg.Password
		}
		if b.PrivateKey == "" {
			b.PrivateKey = cfg.PrivateKey
		}
		if b.Certificate == "" {
			b.Certificate = cfg.Certificate
		}
		cfg.Bastion = b
	}
	if h := str("proxy_host"); h != "" {
		p := &commssh.Proxy{
			Scheme:       str("proxy_scheme"),
			Host:         h,
			UserName:     str("proxy_user_name"),
			UserPassword: str("proxy_user_password"),
		}
		if p.Port, err = num("proxy_port"); err != nil {
			return cfg, err
		}
		if p.Scheme == "" {
			p.Scheme = "http"
		}
		cfg.Proxy = p
	}
	return cfg, nil
}

// Communicator returns a communicator for a request's connection block,
// as SSHConfig decodes it in the request's working directory and
// environment.
func Communicator(req Request) (*commssh.Communicator, error) {
	cfg, err := SSHConfig(req.Connection, req.WorkDir, req.Environ)
	if err != nil {
		return nil, err
	}
	return commssh.New(cfg)
}

// envValue is the value of name in environ (the process's environment
// when environ is nil).
func envValue(environ []string, name string) string {
	if environ == nil {
		return os.Getenv(name)
	}
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as for exec
		}
	}
	return v
}
