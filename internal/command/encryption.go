package command

import (
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/encryption"
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
	enc, diags := encryption.Setup(cfg, eval, d.Getenv(encryption.EnvName))
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
	p := d.newParser()
	p.SetRootVariables(".", earlyVariables(d, nil))
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
