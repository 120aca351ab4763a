package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// stateWith returns a version 4 document with one resource whose fields
// are given as JSON members (without braces), and the instance's fields
// likewise.
func stateWith(resource, instance string) string {
	return fmt.Sprintf(`{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[{%s,"instances":[{%s}]}],"check_results":null}`, resource, instance)
}

const okResource = `"mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`
const okInstance = `"schema_version":0,"attributes":{"id":"x"},"sensitive_attributes":[]`

func TestReadErrors(t *testing.T) {
	tests := map[string]struct {
		src     string
		wantErr string // substring of the error message
		isEmpty bool
	}{
		"empty":           {src: "", isEmpty: true},
		"whitespace only": {src: " \n\t\r\n", isEmpty: true},

		"invalid JSON":         {src: `{"version": 4,`, wantErr: "could not be parsed as JSON"},
		"not JSON at all":      {src: `terraform`, wantErr: "could not be parsed as JSON"},
		"JSON array":           {src: `[4]`, wantErr: "could not be parsed as JSON"},
		"JSON string":          {src: `"version"`, wantErr: "could not be parsed as JSON"},
		"JSON null":            {src: `null`, wantErr: `no "version"`},
		"missing version":      {src: `{"serial":1,"lineage":"l","resources":[]}`, wantErr: `no "version"`},
		"null version":         {src: `{"version":null}`, wantErr: `no "version"`},
		"version 5":            {src: `{"version":5,"serial":1,"lineage":"l","resources":[]}`, wantErr: "format version 5"},
		"version 2":            {src: `{"version":2,"serial":1,"lineage":"l","modules":[]}`, wantErr: "format version 2"},
		"version 1":            {src: `{"version":1}`, wantErr: "too old"},
		"version 0":            {src: `{"version":0}`, wantErr: "too old"},
		"negative version":     {src: `{"version":-4}`, wantErr: "too old"},
		"fractional version":   {src: `{"version":4.5}`, wantErr: "invalid version"},
		"huge version":         {src: `{"version":99999999999999999999999}`, wantErr: "invalid version"},
		"version as string":    {src: `{"version":"4","serial":1,"lineage":"l"}`, wantErr: "could not be parsed"},
		"version as bool":      {src: `{"version":true}`, wantErr: "could not be parsed as JSON"},
		"trailing garbage":     {src: `{"version":4} x`, wantErr: "could not be parsed as JSON"},
		"resources not a list": {src: `{"version":4,"serial":1,"lineage":"l","resources":{}}`, wantErr: "could not be parsed"},
		"negative serial":      {src: `{"version":4,"serial":-1,"lineage":"l","resources":[]}`, wantErr: "could not be parsed"},
		"bad terraform_version": {
			src: `{"version":4,"terraform_version":"one point eleven","serial":1,"lineage":"l","resources":[]}`, wantErr: "invalid terraform_version",
		},

		"index_key fractional": {src: stateWith(okResource, `"index_key":1.5,`+okInstance), wantErr: "invalid index_key 1.5"},
		"index_key negative":   {src: stateWith(okResource, `"index_key":-1,`+okInstance), wantErr: "invalid index_key -1"},
		"index_key exponent":   {src: stateWith(okResource, `"index_key":1e3,`+okInstance), wantErr: "invalid index_key"},
		"index_key overflow":   {src: stateWith(okResource, `"index_key":99999999999999999999,`+okInstance), wantErr: "invalid index_key"},
		"index_key bool":       {src: stateWith(okResource, `"index_key":true,`+okInstance), wantErr: "invalid index_key"},
		"index_key object":     {src: stateWith(okResource, `"index_key":{"a":1},`+okInstance), wantErr: "invalid index_key"},
		"index_key list":       {src: stateWith(okResource, `"index_key":[0],`+okInstance), wantErr: "invalid index_key"},

		"bad mode": {
			src:     stateWith(`"mode":"resource","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance),
			wantErr: `invalid mode "resource"`,
		},
		"missing mode": {
			src:     stateWith(`"type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance),
			wantErr: `invalid mode ""`,
		},
		"missing type": {
			src:     stateWith(`"mode":"managed","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance),
			wantErr: "no type or name",
		},
		"missing name": {
			src:     stateWith(`"mode":"managed","type":"terraform_data","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance),
			wantErr: "no type or name",
		},

		"provider missing":                           {src: stateWith(`"mode":"managed","type":"terraform_data","name":"a"`, okInstance), wantErr: "has no provider, neither for the resource nor for its instance"},
		"provider key on resource":                   {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"hashicorp/aws\"].r[\"x\"]"`, okInstance), wantErr: "cannot have an instance key"},
		"instance provider of another configuration": {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"hashicorp/aws\"].r"`, `"provider":"provider[\"hashicorp/aws\"].s[\"x\"]","schema_version":0,"attributes":{}`), wantErr: "not an instance of its resource's"},
		"instances of different configurations":      {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a"`, `"index_key":0,"provider":"provider[\"hashicorp/aws\"].r[\"x\"]","schema_version":0,"attributes":{}},{"index_key":1,"provider":"provider[\"hashicorp/aws\"].s[\"x\"]","schema_version":0,"attributes":{}`), wantErr: "different provider configurations"},
		"instance provider invalid":                  {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a"`, `"provider":"provider[\"hashicorp/aws\"].r[x]","schema_version":0,"attributes":{}`), wantErr: "quoted string in brackets"},
		"provider bare name":                         {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"aws"`, okInstance), wantErr: "must start with provider["},
		"provider unterminated":                      {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"aws\""`, okInstance), wantErr: "missing ]"},
		"provider unquoted":                          {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[aws]"`, okInstance), wantErr: "invalid provider configuration address"},
		"provider four parts":                        {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"a/b/c/d\"]"`, okInstance), wantErr: "at most three parts"},
		"provider empty part":                        {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"a//c\"]"`, okInstance), wantErr: "empty part"},
		"provider junk after":                        {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"hashicorp/aws\"]west"`, okInstance), wantErr: "invalid provider configuration address"},
		"provider empty alias":                       {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"hashicorp/aws\"]."`, okInstance), wantErr: "invalid provider configuration address"},
		"provider legacy 0.12":                       {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"provider.aws"`, okInstance), wantErr: "must start with provider["},
		"provider bad module":                        {src: stateWith(`"mode":"managed","type":"aws_instance","name":"a","provider":"module.x"`, okInstance), wantErr: "invalid provider configuration address"},

		"module syntax": {
			src: stateWith(`"module":"module.","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},
		"module not a module": {
			src: stateWith(`"module":"foo","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},
		"module is a resource": {
			src: stateWith(`"module":"module.a.terraform_data","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},
		"module is data": {
			src: stateWith(`"module":"data","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},
		"module ends in data": {
			src: stateWith(`"module":"module.a.data","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},
		"module bad key": {
			src: stateWith(`"module":"module.a[-1]","mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"`, okInstance), wantErr: "invalid module address",
		},

		"bad status":     {src: stateWith(okResource, `"status":"broken",`+okInstance), wantErr: `invalid status "broken"`},
		"bad dependency": {src: stateWith(okResource, okInstance+`,"dependencies":["terraform_data"]`), wantErr: `invalid dependency "terraform_data"`},
		"instance dependency": {
			src: stateWith(okResource, okInstance+`,"dependencies":["terraform_data.b[0]"]`), wantErr: "invalid dependency",
		},
		"sensitive_attributes not a list": {
			src: stateWith(okResource, `"schema_version":0,"attributes":{},"sensitive_attributes":{"a":1}`), wantErr: "invalid sensitive_attributes",
		},
		"sensitive_attributes bad step type": {
			src: stateWith(okResource, `"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"splat","value":"a"}]]`), wantErr: `unknown step type "splat"`,
		},
		"sensitive_attributes bad attr name": {
			src: stateWith(okResource, `"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"get_attr","value":1}]]`), wantErr: "invalid sensitive_attributes",
		},
		"sensitive_attributes bad index": {
			src: stateWith(okResource, `"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"index","value":"0"}]]`), wantErr: "invalid sensitive_attributes index",
		},
		"attributes not JSON object": {
			src: stateWith(okResource, `"schema_version":0,"attributes_flat":["a"]`), wantErr: "could not be parsed",
		},
		"private not base64": {
			src: stateWith(okResource, okInstance+`,"private":"!!!"`), wantErr: "could not be parsed",
		},
		"negative schema_version": {
			src: stateWith(okResource, `"schema_version":-1,"attributes":{}`), wantErr: "could not be parsed",
		},

		"output without type": {
			src: `{"version":4,"serial":1,"lineage":"l","outputs":{"o":{"value":"x"}},"resources":[]}`, wantErr: `output "o": invalid type`,
		},
		"output bad type": {
			src: `{"version":4,"serial":1,"lineage":"l","outputs":{"o":{"value":"x","type":"strin"}},"resources":[]}`, wantErr: `output "o": invalid type`,
		},
		"output value mismatch": {
			src: `{"version":4,"serial":1,"lineage":"l","outputs":{"o":{"value":{"a":1},"type":"string"}},"resources":[]}`, wantErr: `output "o": invalid value`,
		},
		"output missing value": {
			src: `{"version":4,"serial":1,"lineage":"l","outputs":{"o":{"type":"string"}},"resources":[]}`, wantErr: `output "o": invalid value`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s, err := Read([]byte(tc.src))
			if err == nil {
				t.Fatalf("Read succeeded, want an error; state: %#v", s)
			}
			if s != nil {
				t.Errorf("Read returned a state along with the error")
			}
			if tc.isEmpty {
				if !errors.Is(err, ErrEmpty) {
					t.Fatalf("got %v, want ErrEmpty", err)
				}
				return
			}
			if errors.Is(err, ErrEmpty) {
				t.Fatalf("got ErrEmpty for a non-empty file")
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestReadModel(t *testing.T) {
	builtin := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	read := func(t *testing.T, name string) *states.State {
		t.Helper()
		src, err := os.ReadFile(filepath.Join("testdata", "roundtrip", name+".in.json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Read(src)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	inst := func(s string) addrs.AbsResourceInstance {
		a, diags := addrs.ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			panic(diags.Error())
		}
		return a
	}

	t.Run("count and for_each keys", func(t *testing.T) {
		s := read(t, "terraform-count-foreach-outputs")
		var got []string
		for _, a := range s.AllInstances() {
			got = append(got, a.String())
		}
		want := []string{
			"terraform_data.counted[0]", "terraform_data.counted[1]", "terraform_data.counted[2]",
			"terraform_data.dep",
			`terraform_data.each["alpha"]`, `terraform_data.each["beta"]`, `terraform_data.each["with space"]`, `terraform_data.each["ünï<>&"]`,
			"terraform_data.nested",
			"module.child.terraform_data.inner[0]", "module.child.terraform_data.inner[1]",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("instances (-want +got):\n%s", diff)
		}
		if s.Serial != 12 || s.Lineage != "ba0efddc-01ae-82b5-ad28-dafbc07da347" || s.TerraformVersion != "1.11.4" {
			t.Errorf("header: serial %d lineage %q version %q", s.Serial, s.Lineage, s.TerraformVersion)
		}
		if s.CheckResults != nil {
			t.Errorf("check_results null should read as nil, got %s", s.CheckResults)
		}
		if r := s.Resource(inst("terraform_data.dep").ContainingResource()); r == nil || r.ProviderConfig.String() != builtin.String() {
			t.Errorf("provider of terraform_data.dep: %+v", r)
		}
	})

	t.Run("dependencies", func(t *testing.T) {
		s := read(t, "terraform-count-foreach-outputs")
		obj := s.Object(inst("terraform_data.dep"))
		var got []string
		for _, d := range obj.Dependencies {
			got = append(got, d.String())
		}
		want := []string{"terraform_data.counted", "terraform_data.each", "terraform_data.nested"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("dependencies (-want +got):\n%s", diff)
		}
	})

	t.Run("nested sensitive paths", func(t *testing.T) {
		s := read(t, "terraform-count-foreach-outputs")
		obj := s.Object(inst("terraform_data.nested"))
		want := []cty.Path{
			cty.GetAttrPath("input").GetAttr("pw"),
			cty.GetAttrPath("input").GetAttr("deep").GetAttr("inner").IndexInt(0),
		}
		if diff := cmp.Diff(want, obj.SensitivePaths, ctyCmp); diff != "" {
			t.Errorf("sensitive paths (-want +got):\n%s", diff)
		}
	})

	t.Run("outputs", func(t *testing.T) {
		s := read(t, "terraform-count-foreach-outputs")
		want := map[string]*states.OutputValue{
			"bool": {Value: cty.True},
			"int":  {Value: cty.NumberIntVal(42)},
			"num":  {Value: cty.MustParseNumberVal("3.14159")},
			"str":  {Value: cty.StringVal(`hello <world> & "quotes"`)},
			"list": {Value: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
			"map":  {Value: cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")})},
			"set":  {Value: cty.SetVal([]cty.Value{cty.StringVal("y"), cty.StringVal("z")})},
			"tuple": {Value: cty.TupleVal([]cty.Value{
				cty.NumberIntVal(1), cty.StringVal("two"), cty.False,
			})},
			"object": {Value: cty.ObjectVal(map[string]cty.Value{
				"n": cty.NumberIntVal(1), "name": cty.StringVal("x"),
				"nested": cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})}),
			})},
			"secret": {Value: cty.StringVal("hunter2"), Sensitive: true},
		}
		if diff := cmp.Diff(want, s.Outputs, ctyCmp); diff != "" {
			t.Errorf("outputs (-want +got):\n%s", diff)
		}
	})

	t.Run("modules, tainted, data, cbd, check results", func(t *testing.T) {
		s := read(t, "terraform-modules-checks-tainted")
		if got := s.Object(inst("terraform_data.to_taint[1]")).Status; got != states.ObjectTainted {
			t.Errorf("to_taint[1] status %c, want tainted", got)
		}
		if got := s.Object(inst("terraform_data.to_taint[0]")).Status; got != states.ObjectReady {
			t.Errorf("to_taint[0] status %c, want ready", got)
		}
		if !s.Object(inst("terraform_data.cbd")).CreateBeforeDestroy {
			t.Error("cbd lost create_before_destroy")
		}
		if s.Object(inst("data.terraform_remote_state.other")) == nil {
			t.Error("data source missing")
		}
		leaf := s.Object(inst(`module.m["b"].module.sub.terraform_data.leaf`))
		if leaf == nil {
			t.Fatal(`module.m["b"].module.sub.terraform_data.leaf missing`)
		}
		if len(leaf.SensitivePaths) == 0 {
			t.Error("leaf has no sensitive paths")
		}
		if len(s.CheckResults) == 0 {
			t.Error("check_results dropped")
		}
		if o := s.Outputs["sensitive_obj"]; o == nil || !o.Sensitive {
			t.Errorf("sensitive_obj: %#v", o)
		}
	})

	t.Run("deposed and private", func(t *testing.T) {
		s := read(t, "deposed-private")
		addr := inst(`terraform_data.x["k"]`)
		ri := s.Resource(addr.ContainingResource()).Instances[addrs.StringKey("k")]
		if ri.Current == nil || string(ri.Current.Private) != `{"schema_version":"1"}` {
			t.Errorf("current private: %+v", ri.Current)
		}
		if len(ri.Deposed) != 2 {
			t.Fatalf("deposed: %v", ri.Deposed)
		}
		if d := ri.Deposed["00000001"]; d == nil || d.Status != states.ObjectTainted || !d.CreateBeforeDestroy || string(d.AttrsJSON) != `{"id":"old1","input":null,"output":null,"triggers_replace":null}` {
			t.Errorf("deposed 00000001: %+v", d)
		}
		if d := ri.Deposed["0123abcd"]; d == nil || string(d.Private) != "binary" {
			t.Errorf("deposed 0123abcd: %+v", d)
		}
	})

	t.Run("flat attributes", func(t *testing.T) {
		s := read(t, "legacy-fields")
		obj := s.Object(inst("null_resource.flat"))
		want := map[string]string{"id": "f", "triggers.%": "1", "triggers.a": "b"}
		if diff := cmp.Diff(want, obj.AttrsFlat); diff != "" {
			t.Errorf("flat attributes (-want +got):\n%s", diff)
		}
		if obj.AttrsJSON != nil {
			t.Errorf("AttrsJSON should be nil, got %s", obj.AttrsJSON)
		}
	})

	t.Run("resource with no instances is kept", func(t *testing.T) {
		s, err := Read([]byte(`{"version":4,"serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if r := s.Resources["terraform_data.a"]; r == nil || len(r.Instances) != 0 {
			t.Fatalf("got %+v", s.Resources)
		}
	})
}

// ctyCmp compares cty values (also inside paths' index steps) by value.
var ctyCmp = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.PathStep) bool {
		switch a := a.(type) {
		case cty.GetAttrStep:
			b, ok := b.(cty.GetAttrStep)
			return ok && a.Name == b.Name
		case cty.IndexStep:
			b, ok := b.(cty.IndexStep)
			return ok && a.Key.RawEquals(b.Key)
		}
		return false
	}),
}

// TestParseDependencies checks that dependency lists decode as
// encoding/json decodes a []string, whether or not they take the fast
// path.
func TestParseDependencies(t *testing.T) {
	for _, src := range []string{
		`[]`, ` [ ] `, `null`, `["a.b"]`, `[ "a.b" , "c.d" ]`, "[\n  \"a.b\",\n  \"c.d\"\n]", `["a.b","a.b"]`,
		`["module.m[\"x\"].a.b"]`, `["\u0061.b"]`, `["module.é.a.b"]`, "[\"module.\xff.a.b\"]", `["module.m[\"<&>\"].a.b"]`,
		`[""]`, `["a"]`, `["a.b", "c"]`, `["a.b[0]"]`,
		`[1]`, `["a.b", 1]`, `[null]`, `{}`, `"a.b"`, `[["a.b"]]`, `["a.b",]`,
	} {
		t.Run(src, func(t *testing.T) {
			var want []addrs.AbsResource
			var list []string
			wantErr := json.Unmarshal([]byte(src), &list)
			for _, d := range list {
				dep, diags := addrs.ParseAbsResourceStr(d)
				if diags.HasErrors() && wantErr == nil {
					wantErr = diags
				}
				want = append(want, dep)
			}
			got, _, err := depCache{}.parseList(json.RawMessage(src))
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, want %v", err, wantErr)
			}
			if diff := cmp.Diff(want, got); err == nil && diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadCurrent checks that snapshots as Terraform and strata write
// them take the one-pass path (FuzzRead checks that it reads as the
// whole-document path does), and that documents it does not handle are
// left to the whole-document path.
func TestReadCurrent(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.out.json"))
	if err != nil {
		t.Fatal(err)
	}
	chain, err := Write(chainState(5))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{"chain": chain}
	for _, in := range ins {
		if docs[in], err = os.ReadFile(in); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range docs {
		if _, err := readCurrent(src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := readFast(src); err != nil && !bytes.Contains(src, []byte(`"attributes_flat"`)) {
			t.Errorf("%s: readFast: %v", name, err)
		}
	}

	dep := `"dependencies":["terraform_data.b"]`
	for name, src := range map[string]string{
		"version 3":                 `{"version":3}`,
		"dependencies twice":        stateWith(okResource, okInstance+","+dep+","+dep),
		"dependencies spelled":      stateWith(okResource, okInstance+`,"Dependencies":["terraform_data.b"]`),
		"dependencies null":         stateWith(okResource, okInstance+`,"dependencies":null`),
		"dependencies empty value":  stateWith(okResource, okInstance+`,"dependencies":,"x":1`),
		"instances spelled":         strings.Replace(stateWith(okResource, okInstance), `"instances"`, `"INSTANCES"`, 1),
		"resources twice":           strings.Replace(stateWith(okResource, okInstance), `"check_results"`, `"resources":[],"check_results"`, 1),
		"escaped key":               strings.Replace(stateWith(okResource, okInstance), `"resources"`, `"re\u0073ources"`, 1),
		"trailing data":             stateWith(okResource, okInstance) + "{}",
		"unbalanced in attributes":  stateWith(okResource, `"schema_version":0,"attributes":{"a":[}`),
		"instance not an object":    strings.Replace(stateWith(okResource, okInstance), `"instances":[{`, `"instances":[1,{`, 1),
		"dependencies not an array": stateWith(okResource, okInstance+`,"dependencies":"terraform_data.b"`),
	} {
		if _, err := readCurrent([]byte(src)); err == nil {
			t.Errorf("%s: readCurrent accepted %s", name, src)
		}
		if name == "dependencies null" {
			continue // readFast reads it, as readWhole does
		}
		if _, err := readFast([]byte(src)); err == nil {
			t.Errorf("%s: readFast accepted %s", name, src)
		}
	}

	// What readFast leaves to the other paths, which read it or say what
	// is wrong with it in their words.
	for name, src := range map[string]string{
		"key spelled":          strings.Replace(stateWith(okResource, okInstance), `"lineage"`, `"Lineage"`, 1),
		"instance key spelled": stateWith(okResource, `"Schema_Version":0,"attributes":{"id":"x"}`),
		"serial twice":         strings.Replace(stateWith(okResource, okInstance), `"serial":1`, `"serial":1,"serial":2`, 1),
		"serial fractional":    strings.Replace(stateWith(okResource, okInstance), `"serial":1`, `"serial":1.0`, 1),
		"serial leading zero":  strings.Replace(stateWith(okResource, okInstance), `"serial":1`, `"serial":01`, 1),
		"version string":       strings.Replace(stateWith(okResource, okInstance), `"version":4`, `"version":"4"`, 1),
		"attributes_flat":      stateWith(okResource, okInstance+`,"attributes_flat":{"id":"x"}`),
		"bad mode":             stateWith(`"mode":"resource","type":"t","name":"a","provider":"provider[\"a/b/c\"]"`, okInstance),
		"invalid unknown":      stateWith(okResource, okInstance+`,"x":tru`),
		"control in string":    strings.Replace(stateWith(okResource, okInstance), `"lineage":"l"`, "\"lineage\":\"l\x01\"", 1),
		"bool as string":       stateWith(okResource, okInstance+`,"create_before_destroy":"true"`),
		"version 3":            `{"version":3,"serial":1,"lineage":"l","modules":[]}`,
	} {
		if _, err := readFast([]byte(src)); err == nil {
			t.Errorf("%s: readFast accepted %s", name, src)
		}
	}
}

// TestParseDottedResource checks the fast path for dependency addresses
// against addrs.ParseAbsResourceStr: whatever it parses, it parses alike,
// and it parses the common forms.
func TestParseDottedResource(t *testing.T) {
	for _, s := range []string{
		"aws_s3_bucket.b", "terraform_data.r9", "a-b.c-d", "_x._y", "data.aws_ami.a", "ephemeral.random_password.p",
		"module.m.aws_a.x", "module.m.module.n.data.t.n", "module.data.a.b", "module.module.a.b", "module.ephemeral.a.b",
		"null.x", "true.false", "var.x", "local.y", "self.z", "count.index", "each.key", "path.module", "terraform.workspace", "resource.a",
		"a", "a.b.c", "data.a", "data.a.b.c", "module.a", "module.a.module", "module.a.b", "module.m[0].a.b", `module.m["k"].a.b`,
		"a.b[0]", "a.b.0", "0a.b", "-a.b", "a..b", ".a.b", "a.b.", "a .b", "é.b", "a.b\n", "module.a.data.b",
	} {
		fast, ok := parseDottedResource(s)
		want, diags := addrs.ParseAbsResourceStr(s)
		if !ok {
			if s == "aws_s3_bucket.b" || s == "module.m.aws_a.x" || s == "data.aws_ami.a" || s == "module.m.module.n.data.t.n" {
				t.Errorf("%q: not parsed by the fast path", s)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%q: fast path parsed %s, addrs.ParseAbsResourceStr refuses it: %s", s, fast, diags.Error())
		} else if !reflect.DeepEqual(fast, want) {
			t.Errorf("%q: fast path parsed %#v, addrs.ParseAbsResourceStr %#v", s, fast, want)
		}
	}
}
