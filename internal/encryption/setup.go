package encryption

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Setup returns the encryption a command works with: cfg (the root
// module's encryption block; nil: none) with env, the value of
// TF_ENCRYPTION, merged over it, as OpenTofu does. eval evaluates cfg's
// expressions; nil evaluates them without variables. It returns nil when
// neither configures anything.
func Setup(cfg *Config, eval Evaluator, env string) (*Encryption, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if env = strings.TrimSpace(env); env != "" {
		envCfg, ediags := DecodeEnv(env)
		diags = append(diags, ediags...)
		if ediags.HasErrors() {
			return nil, diags
		}
		cfg = Merge(cfg, envCfg)
	}
	if cfg == nil {
		return nil, diags
	}
	if eval == nil {
		eval = func(expr hcl.Expression, _ string) (cty.Value, hcl.Diagnostics) { return expr.Value(nil) }
	}
	enc, ediags := New(cfg, eval)
	return enc, append(diags, ediags...)
}
