package command

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// encryptionState is the encryption a command works with, set up once.
type encryptionState struct {
	mu   sync.Mutex // terraform_remote_state reads ask concurrently
	done bool
	enc  *encryption.Encryption
}

// encryptionFor returns the encryption the root module mod configures
// (its encryption block), with TF_ENCRYPTION merged over it, as OpenTofu
// does. It is set up once per command: later calls return the first
// result, and its diagnostics only the first time. mod may be nil (no
// configuration): TF_ENCRYPTION alone then.
func (d *Deps) encryptionFor(mod *configs.Module) (*encryption.Encryption, hcl.Diagnostics) {
	d.encryption.mu.Lock()
	defer d.encryption.mu.Unlock()
	if d.encryption.done {
		return d.encryption.enc, nil
	}
	d.encryption.done = true
	var cfg *encryption.Config
	var eval encryption.Evaluator
	if mod != nil {
		cfg, eval = mod.Encryption, mod.EvalStatic
	}
	var diags hcl.Diagnostics
	if env := strings.TrimSpace(d.Getenv(encryption.EnvName)); env != "" {
		envCfg, ediags := encryption.DecodeEnv(env)
		diags = append(diags, ediags...)
		if ediags.HasErrors() {
			return nil, diags
		}
		cfg = encryption.Merge(cfg, envCfg)
	}
	if cfg == nil {
		return nil, diags
	}
	if eval == nil {
		eval = func(expr hcl.Expression, _ string) (cty.Value, hcl.Diagnostics) { return expr.Value(nil) }
	}
	enc, ediags := encryption.New(cfg, eval)
	diags = append(diags, ediags...)
	d.encryption.enc = enc
	return enc, diags
}

// workdirEncryption is encryptionFor the root module in the working
// directory, for commands that have not loaded it.
func (d *Deps) workdirEncryption() (*encryption.Encryption, hcl.Diagnostics) {
	d.encryption.mu.Lock()
	done, enc := d.encryption.done, d.encryption.enc
	d.encryption.mu.Unlock()
	if done {
		return enc, nil
	}
	p := configs.NewParser()
	p.SetRootVariables(".", earlyVariables(nil))
	mod, _ := p.LoadModule(".") // errors are the command's to report
	return d.encryptionFor(mod)
}

// remoteStateEncryption is the encryption of the state the
// terraform_remote_state data source key reads: its
// remote_state_data_source block, or the default one.
func (d *Deps) remoteStateEncryption(key string) *encryption.Target {
	enc, _ := d.workdirEncryption()
	return enc.RemoteState(key)
}

// readableStateWarning warns, for plan and apply, when the local state
// file mgr read (s) holds sensitive values and can be read by every user
// of the machine. strata creates state files with mode 0600; Terraform
// applies the umask (usually 0644) and does not warn.
func readableStateWarning(mgr statemgr.Manager, s *states.State) hcl.Diagnostics {
	if !holdsSensitive(s) {
		return nil
	}
	if u, ok := mgr.(interface{ Unwrap() statemgr.Manager }); ok {
		mgr = u.Unwrap()
	}
	l, ok := mgr.(*statemgr.Local)
	if !ok {
		return nil
	}
	st, err := os.Stat(l.Path)
	if err != nil || st.Size() == 0 || st.Mode().Perm()&0o004 == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "State file readable by all users",
		Detail: fmt.Sprintf("The state file %s has mode %04o: every user of this machine can read it, with the secrets it holds. "+
			"Restrict it with \"chmod 600 %s\"; strata creates state files readable by their owner only.", l.Path, st.Mode().Perm(), l.Path),
	}}
}

// holdsSensitive reports whether s records a sensitive output or
// attribute.
func holdsSensitive(s *states.State) bool {
	for _, o := range s.Outputs {
		if o.Sensitive {
			return true
		}
	}
	for _, a := range s.AllInstances() {
		if o := s.Object(a); o != nil && len(o.SensitivePaths) > 0 {
			return true
		}
	}
	return false
}
