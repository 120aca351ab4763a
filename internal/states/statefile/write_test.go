package statefile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

func mustInst(s string) addrs.AbsResourceInstance {
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		panic(diags.Error())
	}
	return a
}

func mustRes(s string) addrs.AbsResource {
	a, diags := addrs.ParseAbsResourceStr(s)
	if diags.HasErrors() {
		panic(diags.Error())
	}
	return a
}

func uint64p(v uint64) *uint64 { return &v }

func TestWriteEmpty(t *testing.T) {
	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = "l", 3, "1.11.4"
	got, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	// What Terraform writes for a state without resources or outputs.
	want := `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 3,
  "lineage": "l",
  "outputs": {},
  "resources": [],
  "check_results": null
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteModel(t *testing.T) {
	aws := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws")}
	modAWS := addrs.AbsProviderConfig{Module: addrs.Module{"net"}, Provider: addrs.NewDefaultProvider("aws"), Alias: "east"}

	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = "lin", 9, "1.11.4"
	s.CheckResults = json.RawMessage(`[{"object_kind":"check","config_addr":"check.c","status":"pass","objects":null}]`)
	s.Outputs["marked"] = &states.OutputValue{Value: cty.StringVal("s").Mark("sensitive"), Sensitive: true}
	s.Outputs["deep"] = &states.OutputValue{Value: cty.ObjectVal(map[string]cty.Value{
		"l": cty.ListVal([]cty.Value{cty.StringVal("<a>").Mark("sensitive")}),
	})}
	s.SetObject(mustInst(`module.net["x"].aws_vpc.v[1]`), &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"v1"}`), Status: states.ObjectReady,
		Dependencies: []addrs.AbsResource{mustRes("aws_b.b"), mustRes("aws_a.a")},
	}, modAWS)
	s.SetObject(mustInst(`module.net["x"].aws_vpc.v[0]`), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"v0"}`), Status: states.ObjectReady}, modAWS)
	s.SetObject(mustInst("aws_instance.i"), &states.ObjectSrc{
		SchemaVersion: 2,
		AttrsJSON:     []byte(`{"id":"i","password":"p","tags":{"k":"v"}}`),
		SensitivePaths: []cty.Path{
			cty.GetAttrPath("password"),
			cty.GetAttrPath("tags").IndexString("k"),
			cty.GetAttrPath("list").IndexInt(3),
		},
		Private: []byte{0, 1, 2, 255},
		Status:  states.ObjectTainted,
	}, aws)
	s.SetDeposed(mustInst("aws_instance.i"), "bbbbbbbb", &states.ObjectSrc{AttrsJSON: []byte(`{"id":"old-b"}`), Status: states.ObjectReady}, aws)
	s.SetDeposed(mustInst("aws_instance.i"), "aaaaaaaa", &states.ObjectSrc{AttrsJSON: []byte(`{"id":"old-a"}`), Status: states.ObjectReady}, aws)

	got, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 9,
  "lineage": "lin",
  "outputs": {
    "deep": {
      "value": {
        "l": [
          "\u003ca\u003e"
        ]
      },
      "type": [
        "object",
        {
          "l": [
            "list",
            "string"
          ]
        }
      ]
    },
    "marked": {
      "value": "s",
      "type": "string",
      "sensitive": true
    }
  },
  "resources": [
    {
      "mode": "managed",
      "type": "aws_instance",
      "name": "i",
      "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
      "instances": [
        {
          "status": "tainted",
          "schema_version": 2,
          "attributes": {
            "id": "i",
            "password": "p",
            "tags": {
              "k": "v"
            }
          },
          "sensitive_attributes": [
            [
              {
                "type": "get_attr",
                "value": "password"
              }
            ],
            [
              {
                "type": "get_attr",
                "value": "tags"
              },
              {
                "type": "index",
                "value": {
                  "value": "k",
                  "type": "string"
                }
              }
            ],
            [
              {
                "type": "get_attr",
                "value": "list"
              },
              {
                "type": "index",
                "value": {
                  "value": 3,
                  "type": "number"
                }
              }
            ]
          ],
          "private": "AAEC/w=="
        },
        {
          "deposed": "aaaaaaaa",
          "schema_version": 0,
          "attributes": {
            "id": "old-a"
          },
          "sensitive_attributes": []
        },
        {
          "deposed": "bbbbbbbb",
          "schema_version": 0,
          "attributes": {
            "id": "old-b"
          },
          "sensitive_attributes": []
        }
      ]
    },
    {
      "module": "module.net[\"x\"]",
      "mode": "managed",
      "type": "aws_vpc",
      "name": "v",
      "provider": "module.net.provider[\"registry.terraform.io/hashicorp/aws\"].east",
      "instances": [
        {
          "index_key": 0,
          "schema_version": 0,
          "attributes": {
            "id": "v0"
          },
          "sensitive_attributes": []
        },
        {
          "index_key": 1,
          "schema_version": 0,
          "attributes": {
            "id": "v1"
          },
          "sensitive_attributes": [],
          "dependencies": [
            "aws_b.b",
            "aws_a.a"
          ]
        }
      ]
    }
  ],
  "check_results": [
    {
      "object_kind": "check",
      "config_addr": "check.c",
      "status": "pass",
      "objects": null
    }
  ]
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Reading it back gives the same model (less the marks, which the
	// state file does not carry).
	back, err := Read(got)
	if err != nil {
		t.Fatal(err)
	}
	s.Outputs["marked"].Value, _ = s.Outputs["marked"].Value.UnmarkDeep()
	s.Outputs["deep"].Value, _ = s.Outputs["deep"].Value.UnmarkDeep()
	// check_results is kept as read (indented); compare it compacted.
	back.CheckResults = compact(back.CheckResults)
	if diff := cmp.Diff(s, back, ctyCmp, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(states.State{})); diff != "" {
		t.Errorf("Read(Write(s)) (-want +got):\n%s", diff)
	}
}

func TestWriteErrors(t *testing.T) {
	tests := map[string]struct {
		output  cty.Value
		wantErr string
	}{
		"unknown output":           {output: cty.UnknownVal(cty.String), wantErr: `output "o": value is not known`},
		"partially unknown output": {output: cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), wantErr: "not known"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := states.New()
			s.Outputs["o"] = &states.OutputValue{Value: tc.output}
			_, err := Write(s)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestMarshalObjectRoundTrip(t *testing.T) {
	tests := map[string]*states.ObjectSrc{
		"minimal": {AttrsJSON: []byte(`{"id":"x"}`), Status: states.ObjectReady},
		"tainted with everything": {
			SchemaVersion: 7,
			// AttrsJSON comes back as json.Marshal compacts it, which
			// escapes <, > and &; these bytes need no escaping.
			AttrsJSON: []byte(`{"id":"x","n":1.50,"s":"\u003c\u0026"}`),
			SensitivePaths: []cty.Path{
				cty.GetAttrPath("s"),
				cty.GetAttrPath("m").IndexString("key with \"quotes\""),
				cty.GetAttrPath("l").IndexInt(0).GetAttr("inner"),
			},
			Private:               []byte("private\x00bytes"),
			Status:                states.ObjectTainted,
			Dependencies:          []addrs.AbsResource{mustRes("module.m.aws_a.a"), mustRes("data.aws_b.b")},
			CreateBeforeDestroy:   true,
			IdentityJSON:          []byte(`{"arn":"a"}`),
			IdentitySchemaVersion: uint64p(0),
		},
		"flat": {AttrsFlat: map[string]string{"id": "x", "list.#": "0", "quote\"d": "<\n>"}, Status: states.ObjectReady},
		"indented attributes": {
			AttrsJSON:    []byte("{\n  \"id\": \"x\",\r\n  \"l\": [1, 2]\n}"),
			IdentityJSON: []byte("{\n  \"arn\": \"a\"\n}"),
			Status:       states.ObjectReady,
		},
	}
	for name, obj := range tests {
		t.Run(name, func(t *testing.T) {
			raw, err := MarshalObject(obj)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), "\n") {
				t.Errorf("MarshalObject output spans lines: %s", raw)
			}
			// The same document json.Marshal writes of the entry.
			is, err := EncodeObject(obj)
			if err != nil {
				t.Fatal(err)
			}
			viaMarshal, err := json.Marshal(is)
			if err != nil {
				t.Fatal(err)
			}
			var want, gotDoc any
			if err := json.Unmarshal(viaMarshal, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &gotDoc); err != nil {
				t.Fatalf("MarshalObject wrote invalid JSON: %v\n%s", err, raw)
			}
			if diff := cmp.Diff(want, gotDoc); diff != "" {
				t.Errorf("not what json.Marshal writes (-json.Marshal +MarshalObject):\n%s", diff)
			}
			got, err := UnmarshalObject(raw)
			if err != nil {
				t.Fatal(err)
			}
			// JSON values come back compact.
			wantObj := *obj
			for _, b := range []*[]byte{&wantObj.AttrsJSON, &wantObj.IdentityJSON} {
				if len(*b) > 0 {
					var c bytes.Buffer
					if err := json.Compact(&c, *b); err != nil {
						t.Fatal(err)
					}
					*b = c.Bytes()
				}
			}
			if diff := cmp.Diff(&wantObj, got, ctyCmp, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMarshalObjectInvalidJSON(t *testing.T) {
	for name, obj := range map[string]*states.ObjectSrc{
		"attributes": {AttrsJSON: []byte(`{"id":`)},
		"identity":   {AttrsJSON: []byte(`{}`), IdentityJSON: []byte("{\n")},
	} {
		t.Run(name, func(t *testing.T) {
			if raw, err := MarshalObject(obj); err == nil {
				t.Fatalf("no error; got %s", raw)
			}
		})
	}
}

func TestUnmarshalObjectErrors(t *testing.T) {
	tests := map[string]string{
		"not JSON":       `{`,
		"bad dependency": `{"schema_version":0,"attributes":{},"dependencies":["x"]}`,
		"bad paths":      `{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"nope"}]]}`,
		"wrong type":     `{"schema_version":"0"}`,
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			if obj, err := UnmarshalObject(json.RawMessage(raw)); err == nil {
				t.Fatalf("no error; got %+v", obj)
			}
		})
	}
}

func TestMarshalOutputRoundTrip(t *testing.T) {
	tests := map[string]*states.OutputValue{
		"string":    {Value: cty.StringVal("x\u2028<y>")},
		"number":    {Value: cty.MustParseNumberVal("12345678901234567890.5")},
		"bool":      {Value: cty.False, Sensitive: true},
		"null":      {Value: cty.NullVal(cty.String)},
		"list":      {Value: cty.ListVal([]cty.Value{cty.NumberIntVal(1)})},
		"empty map": {Value: cty.MapValEmpty(cty.Bool)},
		"set":       {Value: cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")})},
		"object": {Value: cty.ObjectVal(map[string]cty.Value{
			"t": cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.Number)}),
		})},
	}
	for name, o := range tests {
		t.Run(name, func(t *testing.T) {
			raw, err := MarshalOutput(o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := UnmarshalOutput(raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(o, got, ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := MarshalOutput(&states.OutputValue{Value: cty.UnknownVal(cty.String)}); err == nil {
		t.Error("MarshalOutput of an unknown value succeeded")
	}
	if _, err := UnmarshalOutput(json.RawMessage(`{"value":1,"type":"bool"}`)); err == nil {
		t.Error("UnmarshalOutput of a mistyped value succeeded")
	}
}

func TestPaths(t *testing.T) {
	tests := map[string]struct {
		paths []cty.Path
		json  string
	}{
		"none":  {paths: nil, json: `[]`},
		"attr":  {paths: []cty.Path{cty.GetAttrPath("a")}, json: `[[{"type":"get_attr","value":"a"}]]`},
		"empty": {paths: []cty.Path{{}}, json: `[[]]`},
		"nested": {
			paths: []cty.Path{cty.GetAttrPath("a").IndexInt(2).IndexString("k").GetAttr("b")},
			json:  `[[{"type":"get_attr","value":"a"},{"type":"index","value":{"value":2,"type":"number"}},{"type":"index","value":{"value":"k","type":"string"}},{"type":"get_attr","value":"b"}]]`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			raw, err := encodePaths(tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.json {
				t.Errorf("encoded %s, want %s", raw, tc.json)
			}
			back, err := decodePaths(raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.paths, back, ctyCmp, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, in := range []string{"", "null"} {
		if p, err := decodePaths(json.RawMessage(in)); err != nil || p != nil {
			t.Errorf("decodePaths(%q) = %v, %v", in, p, err)
		}
	}
}
