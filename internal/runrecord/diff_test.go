package runrecord

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
)

func TestDiff(t *testing.T) {
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	secret := func(v cty.Value) cty.Value { return v.Mark(SensitiveMark) }
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "n": cty.Number})
	tests := map[string]struct {
		before, after cty.Value
		writeOnly     string
		secrets       Secrets
		want          []AttrChange
	}{
		"equal": {
			before: obj(map[string]cty.Value{"id": cty.StringVal("a")}),
			after:  obj(map[string]cty.Value{"id": cty.StringVal("a")}),
		},
		"create": {
			before: cty.NullVal(ty),
			after:  obj(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "n": cty.NumberIntVal(3)}),
			want: []AttrChange{
				{Path: "id", AfterMark: MarkUnknown},
				{Path: "n", After: []byte(`3`)},
			},
		},
		"delete": {
			before: obj(map[string]cty.Value{"id": cty.StringVal("x"), "n": cty.NullVal(cty.Number)}),
			after:  cty.NullVal(ty),
			want:   []AttrChange{{Path: "id", Before: []byte(`"x"`)}},
		},
		"map key": {
			before: obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("dev"), "k": cty.StringVal("v")})}),
			after:  obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "k": cty.StringVal("v")})}),
			want:   []AttrChange{{Path: `tags["env"]`, Before: []byte(`"dev"`), After: []byte(`"prod"`)}},
		},
		"map keys added and removed": {
			before: obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")})}),
			after:  obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"b": cty.StringVal("3"), "c": cty.StringVal("4")})}),
			want: []AttrChange{
				{Path: `tags["a"]`, Before: []byte(`"1"`)},
				{Path: `tags["b"]`, Before: []byte(`"2"`), After: []byte(`"3"`)},
				{Path: `tags["c"]`, After: []byte(`"4"`)},
			},
		},
		"null map to map": {
			before: obj(map[string]cty.Value{"tags": cty.NullVal(cty.Map(cty.String))}),
			after:  obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"x": cty.StringVal("y")})}),
			want:   []AttrChange{{Path: `tags["x"]`, After: []byte(`"y"`)}},
		},
		"sensitive map": {
			before: obj(map[string]cty.Value{"tags": cty.MapValEmpty(cty.String)}),
			after:  obj(map[string]cty.Value{"tags": secret(cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v"), "l": cty.StringVal("w")}))}),
			want: []AttrChange{
				{Path: `tags["k"]`, AfterMark: MarkSensitive},
				{Path: `tags["l"]`, AfterMark: MarkSensitive},
			},
		},
		"attribute on one side only": {
			before: obj(map[string]cty.Value{"a": cty.StringVal("1"), "z": cty.StringVal("old")}),
			after:  obj(map[string]cty.Value{"a": cty.StringVal("1"), "b": obj(map[string]cty.Value{"c": cty.True})}),
			want: []AttrChange{
				{Path: "b.c", After: []byte(`true`)},
				{Path: "z", Before: []byte(`"old"`)},
			},
		},
		"list whole": {
			before: obj(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("a")})}),
			after:  obj(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}),
			want:   []AttrChange{{Path: "l", Before: []byte(`["a"]`), After: []byte(`["a","b"]`)}},
		},
		"sensitive changed": {
			before: obj(map[string]cty.Value{"pw": secret(cty.StringVal("old-secret"))}),
			after:  obj(map[string]cty.Value{"pw": secret(cty.StringVal("new-secret"))}),
			want:   []AttrChange{{Path: "pw", BeforeMark: MarkSensitive, AfterMark: MarkSensitive}},
		},
		"sensitive equal": {
			before: obj(map[string]cty.Value{"pw": secret(cty.StringVal("s"))}),
			after:  obj(map[string]cty.Value{"pw": secret(cty.StringVal("s"))}),
		},
		"sensitive inside a list": {
			before: obj(map[string]cty.Value{"l": cty.ListValEmpty(cty.String)}),
			after:  obj(map[string]cty.Value{"l": cty.ListVal([]cty.Value{secret(cty.StringVal("s"))})}),
			want:   []AttrChange{{Path: "l", Before: []byte(`[]`), AfterMark: MarkSensitive}},
		},
		"whole object sensitive": {
			before: cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String})),
			after:  secret(obj(map[string]cty.Value{"a": cty.StringVal("s")})),
			want:   []AttrChange{{Path: "a", AfterMark: MarkSensitive}},
		},
		"unmarked copy of a secret": {
			before:  obj(map[string]cty.Value{"in": secret(cty.StringVal("hunter2")), "out": cty.StringVal("hunter2"), "msg": cty.StringVal("pw is hunter2!")}),
			after:   obj(map[string]cty.Value{"in": secret(cty.StringVal("x")), "out": cty.StringVal("x"), "msg": cty.StringVal("pw is x!")}),
			secrets: Secrets{"hunter2": {}, "x": {}},
			want: []AttrChange{
				{Path: "in", BeforeMark: MarkSensitive, AfterMark: MarkSensitive},
				{Path: "msg", BeforeMark: MarkSensitive, After: []byte(`"pw is x!"`)},
				{Path: "out", BeforeMark: MarkSensitive, AfterMark: MarkSensitive},
			},
		},
		"write-only": {
			before:    obj(map[string]cty.Value{"wo": cty.NullVal(cty.String), "id": cty.StringVal("a")}),
			after:     obj(map[string]cty.Value{"wo": cty.StringVal("s3cret"), "id": cty.StringVal("b")}),
			writeOnly: "wo",
			want: []AttrChange{
				{Path: "id", Before: []byte(`"a"`), After: []byte(`"b"`)},
				{Path: "wo", BeforeMark: MarkWriteOnly, AfterMark: MarkWriteOnly},
			},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var wo func(cty.Path) bool
			if tt.writeOnly != "" {
				wo = func(p cty.Path) bool { return FormatPath(p) == tt.writeOnly }
			}
			got := Diff(tt.before, tt.after, wo, tt.secrets)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(AttrChange{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

func TestFillAfter(t *testing.T) {
	changes := Diff(cty.NullVal(cty.Object(map[string]cty.Type{"id": cty.String, "out": cty.String, "tok": cty.String})),
		cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "out": cty.UnknownVal(cty.String), "tok": cty.UnknownVal(cty.String), "cp": cty.UnknownVal(cty.String)}), nil, nil)
	if !NeedsFill(changes) {
		t.Fatal("NeedsFill is false with unknown values")
	}
	FillAfter(changes, []byte(`{"id":"abc","out":"x","tok":"secret","cp":"the secret"}`), []cty.Path{cty.GetAttrPath("tok")}, Secrets{"secret": {}})
	if NeedsFill(changes) {
		t.Error("NeedsFill is still true")
	}
	want := []AttrChange{
		{Path: "cp", AfterMark: MarkSensitive},
		{Path: "id", After: []byte(`"abc"`)},
		{Path: "out", After: []byte(`"x"`)},
		{Path: "tok", AfterMark: MarkSensitive},
	}
	if diff := cmp.Diff(want, changes, cmpopts.IgnoreUnexported(AttrChange{})); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"terraform_data.*", "terraform_data.a", true},
		{"terraform_data.*", "module.m.terraform_data.a", false},
		{"*terraform_data.a", "module.m.terraform_data.a", true},
		{`a.b["x"]`, `a.b["x"]`, true},
		{`a.b[?]`, `a.b[0]`, true},
		{`a.b[?]`, `a.b[10]`, false},
		{"*", "", true},
	}
	for _, tt := range tests {
		if got := Glob(tt.pattern, tt.s); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestFillAfterNested(t *testing.T) {
	before := cty.ObjectVal(map[string]cty.Value{
		"dyn":   cty.NullVal(cty.DynamicPseudoType),
		"typed": cty.NullVal(cty.DynamicPseudoType),
		"tags":  cty.MapVal(map[string]cty.Value{"env": cty.StringVal("a")}),
		"l":     cty.ListVal([]cty.Value{cty.StringVal("a")}),
	})
	after := cty.ObjectVal(map[string]cty.Value{
		"dyn":   cty.UnknownVal(cty.DynamicPseudoType),
		"typed": cty.UnknownVal(cty.String),
		"tags":  cty.MapVal(map[string]cty.Value{"env": cty.UnknownVal(cty.String)}),
		"l":     cty.UnknownVal(cty.List(cty.String)),
	})
	changes := Diff(before, after, nil, nil)
	FillAfter(changes, []byte(`{"dyn":{"type":"string","value":"v"},"typed":{"value":"w","type":"string"},"tags":{"env":"b"},"l":["x","y"]}`), nil, nil)
	want := []AttrChange{
		{Path: "dyn", After: []byte(`"v"`)},
		{Path: "l", Before: []byte(`["a"]`), After: []byte(`["x","y"]`)},
		{Path: `tags["env"]`, Before: []byte(`"a"`), After: []byte(`"b"`)},
		{Path: "typed", After: []byte(`"w"`)},
	}
	if diff := cmp.Diff(want, changes, cmpopts.IgnoreUnexported(AttrChange{})); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
}

func TestObjectChanges(t *testing.T) {
	got := ObjectChanges([]byte(`{"id":"i-1","pw":"x","gone":null,"tags":{"a":"b"}}`), []cty.Path{cty.GetAttrPath("pw")}, nil)
	want := []AttrChange{
		{Path: "id", After: []byte(`"i-1"`)},
		{Path: "pw", AfterMark: MarkSensitive},
		{Path: "tags", After: []byte(`{"a":"b"}`)},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(AttrChange{})); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
}

// TestSecretsAddJSON: the strings at sensitive paths of an applied object
// become secrets (inside lists, maps and dynamically-typed values), so
// that values copied from them are redacted; other attributes do not.
func TestSecretsAddJSON(t *testing.T) {
	s := Secrets{}
	attrs := []byte(`{"id":"abc","result":"pw-123456","keys":["k-one","k-two"],"dyn":{"value":{"a":"dyn-secret"},"type":["object",{"a":"string"}]},"n":5}`)
	if !s.AddJSON(attrs, []cty.Path{cty.GetAttrPath("result"), cty.GetAttrPath("keys"), cty.GetAttrPath("dyn"), cty.GetAttrPath("n"), cty.GetAttrPath("missing")}) {
		t.Fatal("AddJSON added nothing")
	}
	want := Secrets{"pw-123456": {}, "k-one": {}, "k-two": {}, "dyn-secret": {}}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("wrong secrets (-want +got)\n%s", diff)
	}
	if s.AddJSON(attrs, []cty.Path{cty.GetAttrPath("result")}) {
		t.Error("AddJSON reports a secret it already had as added")
	}
	changes := Diff(cty.NullVal(cty.Object(map[string]cty.Type{"copy": cty.String})), cty.ObjectVal(map[string]cty.Value{"copy": cty.UnknownVal(cty.String)}), nil, nil)
	FillAfter(changes, []byte(`{"copy":"uses pw-123456"}`), nil, s)
	if len(changes) != 1 || changes[0].AfterMark != MarkSensitive || changes[0].After != nil {
		t.Errorf("a copy of the secret is not redacted: %+v", changes)
	}
}
