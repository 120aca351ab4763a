package upgrade

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStateFileV3Golden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "v3-terraform-0.11.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "v3-terraform-0.11.v4.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := StateFile(src, 4)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.TrimSpace(string(want)), string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStateFileVersions(t *testing.T) {
	v4 := `{"version":4,"serial":1,"lineage":"l","resources":[]}`
	tests := map[string]struct {
		src       string
		to        int
		unchanged bool   // the input comes back as it is
		wantErr   string // substring of the error
	}{
		"version 4 is returned as is": {src: v4, to: 4, unchanged: true},
		"version 4 keeps its layout":  {src: "{ \"version\" : 4 ,\n\"x\":\"<&>\"}", to: 4, unchanged: true},
		"version 3 is upgraded":       {src: `{"version":3,"serial":1,"lineage":"l","modules":[]}`, to: 4},
		"version 5":                   {src: `{"version":5}`, to: 4, wantErr: "format version 5, which this version of strata does not support"},
		"version 99":                  {src: `{"version":99}`, to: 4, wantErr: "upgrade strata"},
		"version 2":                   {src: `{"version":2,"modules":[]}`, to: 4, wantErr: "format version 2, which is too old"},
		"version 1":                   {src: `{"version":1}`, to: 4, wantErr: "too old"},
		"version 0":                   {src: `{"version":0}`, to: 4, wantErr: "too old"},
		"version 3 to 3":              {src: `{"version":3}`, to: 3, unchanged: true},
		"version 3 to 5":              {src: `{"version":3}`, to: 5, wantErr: "too old"},
		"missing version":             {src: `{"serial":1}`, to: 4, wantErr: `no "version" property`},
		"null version":                {src: `{"version":null}`, to: 4, wantErr: `no "version" property`},
		"fractional version":          {src: `{"version":3.5}`, to: 4, wantErr: "invalid version 3.5"},
		"exponent version":            {src: `{"version":4e0}`, to: 4, wantErr: "invalid version"},
		"version as bool":             {src: `{"version":true}`, to: 4, wantErr: "could not be parsed as JSON"},
		"version as word":             {src: `{"version":"four"}`, to: 4, wantErr: "could not be parsed as JSON"},
		"not JSON":                    {src: `{"version":`, to: 4, wantErr: "could not be parsed as JSON"},
		"JSON array":                  {src: `[{"version":4}]`, to: 4, wantErr: "could not be parsed as JSON"},
		"v3 with bad modules":         {src: `{"version":3,"modules":{}}`, to: 4, wantErr: "version 3 state file could not be parsed"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := StateFile([]byte(tc.src), tc.to)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("no error; got %s", got)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %q does not contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.unchanged && string(got) != tc.src {
				t.Errorf("got %s, want the input unchanged", got)
			}
			if !json.Valid(got) {
				t.Errorf("result is not JSON: %s", got)
			}
		})
	}
}

// v3 wraps one root module's resources (a JSON object body) and outputs.
func v3(resources, outputs string) string {
	return `{"version":3,"terraform_version":"0.11.8","serial":2,"lineage":"l","modules":[{"path":["root"],"outputs":{` + outputs + `},"resources":{` + resources + `}}]}`
}

func TestV3ToV4(t *testing.T) {
	tests := map[string]struct {
		src string
		// want lists the expected parts of the result, as JSON, keyed by a
		// selector understood by pick.
		want    map[string]string
		wantErr string
	}{
		"header": {
			src: v3("", ""),
			want: map[string]string{
				"version": `4`, "terraform_version": `"0.11.8"`, "serial": `2`, "lineage": `"l"`, "outputs": `{}`, "resources": `null`,
			},
		},
		"no modules": {
			src:  `{"version":3,"serial":1,"lineage":"l"}`,
			want: map[string]string{"resources": `null`, "outputs": `{}`},
		},
		"nested module path": {
			src: `{"version":3,"modules":[{"path":["root","a","b"],"resources":{"null_resource.x":{"type":"null_resource","primary":{"id":"1","attributes":{"id":"1"}}}}}]}`,
			want: map[string]string{
				"resources.0.module":   `"module.a.module.b"`,
				"resources.0.provider": `"provider[\"registry.terraform.io/hashicorp/null\"]"`,
			},
		},
		"counted data source": {
			src: v3(`"data.aws_ami.x.2":{"type":"aws_ami","primary":{"id":"a","attributes":{"id":"a"}},"provider":"provider.aws"}`, ""),
			want: map[string]string{
				"resources.0.mode":                  `"data"`,
				"resources.0.type":                  `"aws_ami"`,
				"resources.0.name":                  `"x"`,
				"resources.0.instances.0.index_key": `2`,
			},
		},
		"count merges into one resource": {
			src: v3(`"a_b.c.10":{"primary":{"id":"10"}},"a_b.c.2":{"primary":{"id":"2"}},"a_b.c.0":{"primary":{"id":"0"}}`, ""),
			want: map[string]string{
				"resources.#":                             `1`,
				"resources.0.instances.#":                 `3`,
				"resources.0.instances.0.index_key":       `0`,
				"resources.0.instances.1.index_key":       `10`,
				"resources.0.instances.2.index_key":       `2`,
				"resources.0.instances.1.attributes_flat": `{"id":"10"}`,
			},
		},
		"implied provider": {
			src:  v3(`"google_compute_instance.i":{"primary":{"id":"1"}}`, ""),
			want: map[string]string{"resources.0.provider": `"provider[\"registry.terraform.io/hashicorp/google\"]"`},
		},
		"provider alias": {
			src:  v3(`"aws_s3_bucket.b":{"primary":{"id":"1"},"provider":"provider.aws.east"}`, ""),
			want: map[string]string{"resources.0.provider": `"provider[\"registry.terraform.io/hashicorp/aws\"].east"`},
		},
		"provider configured in a module": {
			src: `{"version":3,"modules":[{"path":["root","child"],"resources":{"aws_s3_bucket.b":{"primary":{"id":"1"},"provider":"module.child.provider.aws.east"}}}]}`,
			want: map[string]string{
				"resources.0.module":   `"module.child"`,
				"resources.0.provider": `"module.child.provider[\"registry.terraform.io/hashicorp/aws\"].east"`,
			},
		},
		"schema version from meta": {
			src: v3(`"a_b.c":{"primary":{"id":"1","meta":{"schema_version":"3"}},"deposed":[{"id":"2","meta":{"schema_version":2}}]}`, ""),
			want: map[string]string{
				"resources.0.instances.0.schema_version": `3`,
				"resources.0.instances.1.schema_version": `2`,
			},
		},
		"unparsable schema version": {
			src:  v3(`"a_b.c":{"primary":{"id":"1","meta":{"schema_version":"x"}}}`, ""),
			want: map[string]string{"resources.0.instances.0.schema_version": `0`},
		},
		"id added to attributes": {
			src:  v3(`"a_b.c":{"primary":{"id":"the-id"}}`, ""),
			want: map[string]string{"resources.0.instances.0.attributes_flat": `{"id":"the-id"}`},
		},
		"id attribute wins": {
			src:  v3(`"a_b.c":{"primary":{"id":"outer","attributes":{"id":"inner"}}}`, ""),
			want: map[string]string{"resources.0.instances.0.attributes_flat": `{"id":"inner"}`},
		},
		"tainted primary and deposed only": {
			src: v3(`"a_b.c":{"deposed":[{"id":"d1","tainted":true},{"id":"d2"}]}`, ""),
			want: map[string]string{
				"resources.0.instances.#":         `2`,
				"resources.0.instances.0.deposed": `"00000001"`,
				"resources.0.instances.0.status":  `"tainted"`,
				"resources.0.instances.1.deposed": `"00000002"`,
			},
		},
		"dependencies": {
			src: `{"version":3,"modules":[{"path":["root","m"],"resources":{"a_b.c":{"primary":{"id":"1"},"depends_on":["a_b.d","a_b.e.*","a_b.f.1","a_b.f.0","data.a_g.h","data.a_g.i.0","module.other","a_b.d"]}}}]}`,
			want: map[string]string{
				"resources.0.instances.0.dependencies": `["module.m.a_b.d","module.m.a_b.e","module.m.a_b.f","module.m.data.a_g.h","module.m.data.a_g.i"]`,
			},
		},
		"outputs": {
			src: v3("", `"s":{"type":"string","value":"v"},"l":{"type":"list","value":["a","b"]},"m":{"type":"map","value":{"k":"v"},"sensitive":true},"e":{"type":"list","value":[]}`),
			want: map[string]string{
				"outputs.s": `{"value":"v","type":"string"}`,
				"outputs.l": `{"value":["a","b"],"type":["list","string"]}`,
				"outputs.m": `{"value":{"k":"v"},"type":["map","string"],"sensitive":true}`,
				"outputs.e": `{"value":[],"type":["list","string"]}`,
			},
		},
		"outputs of nested values": {
			src: v3("", `"lm":{"type":"list","value":[{"a":"1"},{"a":"2"}]},"ml":{"type":"map","value":{"k":["x","y"]}},"ll":{"type":"list","value":[["a"],["b","c"]]}`),
			want: map[string]string{
				"outputs.lm": `{"value":[{"a":"1"},{"a":"2"}],"type":["tuple",[["object",{"a":"string"}],["object",{"a":"string"}]]]}`,
				"outputs.ml": `{"value":{"k":["x","y"]},"type":["object",{"k":["tuple",["string","string"]]}]}`,
				"outputs.ll": `{"value":[["a"],["b","c"]],"type":["tuple",[["tuple",["string"]],["tuple",["string","string"]]]]}`,
			},
		},
		"child module outputs are dropped": {
			src:  `{"version":3,"modules":[{"path":["root","c"],"outputs":{"o":{"type":"string","value":"v"}}}]}`,
			want: map[string]string{"outputs": `{}`},
		},

		"unsupported output type": {src: v3("", `"o":{"type":"set","value":[]}`), wantErr: `output "o" has unsupported type "set"`},
		"output without type":     {src: v3("", `"o":{"value":"v"}`), wantErr: `output "o" has unsupported type ""`},
		"resource key too short":  {src: v3(`"aws_instance":{}`, ""), wantErr: `invalid resource key "aws_instance"`},
		"resource key too long":   {src: v3(`"a.b.c.d":{}`, ""), wantErr: `invalid resource key "a.b.c.d"`},
		"resource key bad index":  {src: v3(`"a_b.c.x":{}`, ""), wantErr: `invalid resource key "a_b.c.x"`},
		"resource key negative":   {src: v3(`"a_b.c.-1":{}`, ""), wantErr: `invalid resource key`},
		"bad provider":            {src: v3(`"a_b.c":{"provider":"provider.a.b.c"}`, ""), wantErr: `invalid provider "provider.a.b.c"`},
		"bad module provider":     {src: v3(`"a_b.c":{"provider":"module.provider.a"}`, ""), wantErr: `invalid provider`},
		"bad resource JSON":       {src: v3(`"a_b.c":{"primary":[]}`, ""), wantErr: "could not be parsed"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := StateFile([]byte(tc.src), 4)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("no error; got %s", got)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %q does not contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(got, &doc); err != nil {
				t.Fatal(err)
			}
			for sel, wantJSON := range tc.want {
				var want any
				if err := json.Unmarshal([]byte(wantJSON), &want); err != nil {
					t.Fatalf("bad test JSON for %s: %s", sel, err)
				}
				if diff := cmp.Diff(want, pick(t, doc, sel)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", sel, diff)
				}
			}
		})
	}
}

// pick returns the part of a decoded JSON document at a dotted selector:
// object member names, list indexes, and "#" for a list's length.
func pick(t *testing.T, doc any, sel string) any {
	t.Helper()
	cur := doc
	for _, part := range strings.Split(sel, ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[part]
			if !ok {
				t.Fatalf("%s: no member %q in %v", sel, part, c)
			}
			cur = v
		case []any:
			if part == "#" {
				return float64(len(c))
			}
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i < 0 || i >= len(c) {
				t.Fatalf("%s: bad index %q into a list of %d", sel, part, len(c))
			}
			cur = c[i]
		default:
			t.Fatalf("%s: cannot select %q from %v", sel, part, cur)
		}
	}
	return cur
}
