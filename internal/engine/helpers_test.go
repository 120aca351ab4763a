package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
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

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	r, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return r
}

// objectAttr returns one attribute of an instance's stored object as JSON.
func objectAttr(t *testing.T, s *states.State, addr, attr string) string {
	t.Helper()
	obj := s.Object(mustInstance(t, addr))
	if obj == nil {
		t.Fatalf("%s not in state", addr)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj.AttrsJSON, &m); err != nil {
		t.Fatal(err)
	}
	raw := string(m[attr])
	if strings.HasPrefix(raw, `{"value":`) {
		var dyn struct{ Value json.RawMessage }
		_ = json.Unmarshal(m[attr], &dyn)
		raw = string(dyn.Value)
	}
	return raw
}
