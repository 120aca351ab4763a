package command

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/getproviders"
)

// providerMirrors returns the directories providers are installed from:
// the filesystem_mirror paths of the CLI configuration's
// provider_installation block when there is one, otherwise the implied
// local mirror directories Terraform searches. Both Terraform's
// TF_CLI_CONFIG_FILE and ~/.terraformrc are honoured.
func providerMirrors(d *Deps) ([]string, hcl.Diagnostics) {
	path := d.Getenv("TF_CLI_CONFIG_FILE")
	if path == "" {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, ".terraformrc")
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return getproviders.ImpliedMirrors(d.Getenv), nil
	}
	f, diags := hclparse.NewParser().ParseHCL(src, path)
	if diags.HasErrors() {
		return nil, diags
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "provider_installation"}}})
	if len(content.Blocks) == 0 {
		return getproviders.ImpliedMirrors(d.Getenv), nil
	}
	var dirs []string
	for _, pi := range content.Blocks {
		inner, _, _ := pi.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "filesystem_mirror"}}})
		for _, fm := range inner.Blocks {
			attrs, _ := fm.Body.JustAttributes()
			if a, ok := attrs["path"]; ok {
				if v, vdiags := a.Expr.Value(nil); !vdiags.HasErrors() && v.Type() == cty.String && !v.IsNull() {
					dirs = append(dirs, v.AsString())
				}
			}
		}
	}
	return dirs, nil
}
