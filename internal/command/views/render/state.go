package render

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// StateResource renders one resource instance object from state the way
// `show` does:
//
//	# terraform_data.a:
//	resource "terraform_data" "a" {
//	    id     = "..."
//	    input  = "x"
//	}
//
// The text ends with a newline and holds colorstring markup.
func StateResource(addr string, v cty.Value, schema *configschema.Block) string {
	a := parseAddr(addr)
	kw := "resource"
	if a.data {
		kw = "data"
	}
	d := &differ{}
	body := d.block(v, v, schema, nil)
	o := opts{hideSymbols: true, showUnchanged: true}
	return fmt.Sprintf("# %s:\n%s %s %s %s\n", esc(addr), kw, quote(a.typ), quote(a.name), body.render(0, o))
}
