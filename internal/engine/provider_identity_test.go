package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/states"
)

func TestProviderRecord(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"region":       {Type: cty.String, Optional: true},
		"s3_endpoint":  {Type: cty.String, Optional: true},
		"token":        {Type: cty.String, Optional: true, Sensitive: true},
		"retries":      {Type: cty.Number, Optional: true},
		"profile_name": {Type: cty.String, Optional: true},
	}}
	obj := func(region, endpoint, token, profile cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"region": region, "s3_endpoint": endpoint, "token": token, "retries": cty.NumberIntVal(3), "profile_name": profile,
		})
	}
	null := cty.NullVal(cty.String)
	base, ok := providerRecord("p", schema, obj(cty.StringVal("us"), null, cty.StringVal("t1"), null))
	if !ok {
		t.Fatal("a known configuration has no record")
	}
	if diff := cmp.Diff(states.ProviderConfigRecord{Provider: "p", Hash: base.Hash, Identity: map[string]string{"region": `"us"`}}, base); diff != "" || !strings.HasPrefix(base.Hash, "sha256:") {
		t.Errorf("wrong record (-want +got)\n%s", diff)
	}
	tests := map[string]struct {
		v          cty.Value
		ok         bool
		sameHash   bool
		identities []string
	}{
		"sensitive argument changed":                  {obj(cty.StringVal("us"), null, cty.StringVal("t2"), null), true, true, nil},
		"argument sensitive by configuration":         {obj(cty.StringVal("us"), null, cty.StringVal("t1"), cty.StringVal("x").Mark(marks.Sensitive)), true, true, nil},
		"other argument changed":                      {obj(cty.StringVal("us"), null, cty.StringVal("t1"), cty.StringVal("dev")), true, false, nil},
		"region changed":                              {obj(cty.StringVal("eu"), null, cty.StringVal("t1"), null), true, false, []string{`region "us" → "eu"`}},
		"endpoint set":                                {obj(cty.StringVal("us"), cty.StringVal("http://x"), cty.StringVal("t1"), null), true, false, []string{`s3_endpoint (unset) → "http://x"`}},
		"region unset":                                {obj(null, null, cty.StringVal("t1"), null), true, false, []string{`region "us" → (unset)`}},
		"unknown region":                              {obj(cty.UnknownVal(cty.String), null, cty.StringVal("t1"), null), false, false, nil},
		"unknown sensitive argument does not stop it": {obj(cty.StringVal("us"), null, cty.UnknownVal(cty.String), null), true, true, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rec, ok := providerRecord("p", schema, tc.v)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if (rec.Hash == base.Hash) != tc.sameHash {
				t.Errorf("hash %s, base %s, want same: %v", rec.Hash, base.Hash, tc.sameHash)
			}
			if diff := cmp.Diff(tc.identities, identityChanges(base, rec)); diff != "" {
				t.Errorf("wrong identity changes (-want +got)\n%s", diff)
			}
		})
	}
}

func TestIdentityArgument(t *testing.T) {
	for name, want := range map[string]bool{
		"region": true, "project": true, "endpoint": true, "s3_endpoint": true, "base_url": true, "api_url": true,
		"profile": false, "token": false, "retries": false, "endpoint_timeout": false,
	} {
		if got := identityArgument(name); got != want {
			t.Errorf("identityArgument(%q) = %v, want %v", name, got, want)
		}
	}
}
