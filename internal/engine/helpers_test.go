package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

func ctyNum(n int64) cty.Value { return cty.NumberIntVal(n) }

func mustResource(t *testing.T, s string) addrs.AbsResource {
	t.Helper()
	r, diags := addrs.ParseAbsResourceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return r
}
