package addrs

import (
	"testing"
)

func TestParseAbsResourceInstanceStr(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    string
		wantErr bool
	}{
		"managed":         {in: "terraform_data.a", want: "terraform_data.a"},
		"count":           {in: "terraform_data.a[3]", want: "terraform_data.a[3]"},
		"for_each":        {in: `terraform_data.a["x y"]`, want: `terraform_data.a["x y"]`},
		"data":            {in: "data.terraform_remote_state.s", want: "data.terraform_remote_state.s"},
		"module":          {in: `module.m["k"].module.n.terraform_data.a[0]`, want: `module.m["k"].module.n.terraform_data.a[0]`},
		"too short":       {in: "terraform_data", wantErr: true},
		"too long":        {in: "terraform_data.a.b", wantErr: true},
		"negative index":  {in: "terraform_data.a[-1]", wantErr: true},
		"fractional":      {in: "terraform_data.a[1.5]", wantErr: true},
		"syntax":          {in: "terraform_data.", wantErr: true},
		"index on module": {in: `module[0].x.y`, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := ParseAbsResourceInstanceStr(tc.in)
			if tc.wantErr {
				if !diags.HasErrors() {
					t.Fatalf("expected error, got %s", got)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got.String() != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestAbsProviderConfigRoundTrip(t *testing.T) {
	tests := map[string]string{
		"builtin":            `provider["terraform.io/builtin/terraform"]`,
		"alias":              `provider["registry.terraform.io/hashicorp/aws"].west`,
		"module":             `module.a.module.b.provider["example.com/x/y"]`,
		"unicode":            `provider["registry.例え.jp/x/y"]`,
		"instance":           `provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"]`,
		"instance in module": `module.a.provider["registry.terraform.io/hashicorp/aws"].r["a]\"b"]`,
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := ParseAbsProviderConfig(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != in {
				t.Errorf("got %s, want %s", got, in)
			}
		})
	}
	for _, bad := range []string{"provider", `provider["a/b/c/d"]`, `provider[x]`, `provider["a"].`,
		`provider["a"].r[1]`, `provider["a"].r["x"`, `provider["a"].["x"]`, `provider["a"].r[]`} {
		if _, err := ParseAbsProviderConfig(bad); err == nil {
			t.Errorf("%s: expected error", bad)
		}
	}
}

func TestAbsProviderConfigInstance(t *testing.T) {
	p, err := ParseAbsProviderConfig(`provider["registry.terraform.io/hashicorp/aws"].by_region["x"]`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Alias != "by_region" || p.Key != StringKey("x") {
		t.Fatalf("alias %q, key %#v", p.Alias, p.Key)
	}
	if got, want := p.Config().String(), `provider["registry.terraform.io/hashicorp/aws"].by_region`; got != want {
		t.Errorf("Config() = %s, want %s", got, want)
	}
	if got, want := p.Config().Instance(StringKey("y")).String(), `provider["registry.terraform.io/hashicorp/aws"].by_region["y"]`; got != want {
		t.Errorf("Instance() = %s, want %s", got, want)
	}
}

func TestCompareKeys(t *testing.T) {
	keys := []InstanceKey{NoKey, IntKey(1), IntKey(10), StringKey("a"), StringKey("b")}
	for i := range keys {
		for j := range keys {
			got := CompareKeys(keys[i], keys[j])
			switch {
			case i < j && got >= 0, i > j && got <= 0, i == j && got != 0:
				t.Errorf("CompareKeys(%v, %v) = %d", keys[i], keys[j], got)
			}
		}
	}
}

func TestParseTarget(t *testing.T) {
	a0, _ := ParseAbsResourceInstanceStr("terraform_data.a[0]")
	a1, _ := ParseAbsResourceInstanceStr("terraform_data.a[1]")
	b, _ := ParseAbsResourceInstanceStr("terraform_data.b")
	m0, _ := ParseAbsResourceInstanceStr("module.m[0].terraform_data.a")
	m1, _ := ParseAbsResourceInstanceStr("module.m[1].module.n.terraform_data.a")
	tests := map[string]struct {
		in        string
		instances map[string]bool // instance -> contained
	}{
		"whole resource":            {"terraform_data.a", map[string]bool{"a0": true, "a1": true, "b": false, "m0": false}},
		"one instance":              {"terraform_data.a[1]", map[string]bool{"a0": false, "a1": true, "b": false}},
		"module call":               {"module.m", map[string]bool{"a0": false, "m0": true, "m1": true}},
		"module instance":           {"module.m[1]", map[string]bool{"m0": false, "m1": true}},
		"nested module":             {"module.m.module.n", map[string]bool{"m0": false, "m1": true}},
		"resource in every module":  {"module.m.terraform_data.a", map[string]bool{"a0": false, "m0": true, "m1": false}},
		"resource in one instance":  {"module.m[1].terraform_data.a", map[string]bool{"m0": false, "m1": false}},
		"resource in nested module": {"module.m[1].module.n.terraform_data.a", map[string]bool{"m0": false, "m1": true}},
	}
	insts := map[string]AbsResourceInstance{"a0": a0, "a1": a1, "b": b, "m0": m0, "m1": m1}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			target, diags := ParseTarget(tc.in)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if target.String() != tc.in {
				t.Errorf("String() = %s", target)
			}
			for k, want := range tc.instances {
				if got := target.ContainsInstance(insts[k]); got != want {
					t.Errorf("%s contains %s = %v, want %v", tc.in, k, got, want)
				}
			}
		})
	}
	if _, diags := ParseTarget("nope"); !diags.HasErrors() {
		t.Error("expected an error for an invalid address")
	}
}

// TestAbsResourceAppendString: AppendString appends what String returns,
// for every mode, in the root module and in module instances, for an
// AbsResource and its ConfigResource.
func TestAbsResourceAppendString(t *testing.T) {
	for _, s := range []string{
		"aws_instance.web", "data.aws_ami.ubuntu", "ephemeral.random_password.p",
		`module.a.aws_instance.web`, `module.a[1].module.b["k"].data.aws_ami.ubuntu`,
	} {
		addr, diags := ParseAbsResourceStr(s)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", s, diags.Error())
		}
		if got := string(addr.AppendString([]byte("prefix:"))); got != "prefix:"+s || addr.String() != s {
			t.Errorf("AppendString of %s = %q, String = %q", s, got, addr.String())
		}
		cfg := addr.Config()
		if got := string(cfg.AppendString([]byte("prefix:"))); got != "prefix:"+cfg.String() {
			t.Errorf("ConfigResource.AppendString of %s = %q, String = %q", cfg, got, cfg.String())
		}
	}
}

// TestParseAbsResourceInstanceErrors: addresses that do not parse get
// Terraform's summaries and details, with the range Terraform underlines:
// the rest of the address from the wrong part on, or the one wrong step.
func TestParseAbsResourceInstanceErrors(t *testing.T) {
	// "resource." lets a resource type be a reserved word.
	if a, diags := ParseAbsResourceInstanceStr("resource.var.x[1]"); diags.HasErrors() || a.String() != "var.x[1]" {
		t.Errorf("resource.var.x[1]: %v %v", a, diags)
	}
	tests := []struct {
		in, summary, detail string
		// wrong is the part of in the error's range covers.
		wrong string
	}{
		{"nope", "Invalid address", "Resource specification must include a resource type and name.", "nope"},
		{"a.b.c", "Invalid address", "Resource instance key must be given in square brackets.", ".c"},
		{"terraform_data.a[0].x", "Invalid address", "Unexpected extra operators after address.", ".x"},
		{"terraform_data.a[0][1]", "Invalid address", "Unexpected extra operators after address.", "[1]"},
		{"module", "Invalid address operator", `Prefix "module." must be followed by a module name.`, "module"},
		{"module.m", "Invalid address", "A resource instance address is required here. The module path must be followed by a resource instance specification.", "module.m"},
		{"terraform_data[0].a", "Invalid address", "A resource name is required.", "[0]"},
		{"data[0].x.y", "Invalid address", "A data source name is required.", "[0]"},
		{"ephemeral[0].x.y", "Invalid address", "An ephemeral resource type name is required.", "[0]"},
		{"module[0].m.x.y", "Invalid address operator", `Prefix "module." must be followed by a module name.`, "[0]"},
		{"module.m[0][1].x.y", "Invalid address operator", "Module address prefix must be followed by dot and then a name.", "[1]"},
		{"module.m.var.x", "Invalid address", `The keyword "var" is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with "resource.".`, ".var.x"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, diags := ParseAbsResourceInstanceStr(tc.in)
			if len(diags) != 1 {
				t.Fatalf("got %v, want one error", diags)
			}
			d := diags[0]
			if d.Summary != tc.summary || d.Detail != tc.detail {
				t.Errorf("got %q: %q, want %q: %q", d.Summary, d.Detail, tc.summary, tc.detail)
			}
			if r := d.Subject; r == nil || tc.in[r.Start.Byte:r.End.Byte] != tc.wrong {
				t.Errorf("the error's range is %v, want the part %q", r, tc.wrong)
			}
		})
	}
}
