package statefile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// variedState holds n instances of each shape the writer lays out
// differently: nested attributes, count and for_each keys, a module,
// sensitive paths, private data, identities, a deposed and a tainted
// object, dependency lists and provider records.
func variedState(n int) *states.State {
	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws")}
	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = "l", 1, "1.11.4"
	s.ProviderConfigs = map[string]states.ProviderConfigRecord{}
	version := uint64(1)
	for i := 0; i < n; i++ {
		nested := fmt.Sprintf(`{"id":"i-%d","tags":{"Name":"web-%d","env":"prod"},"ebs":[{"size":8,"type":"gp3","opts":{"a":[1,2,3],"b":{"c":{"d":"deep"}}}}],"empty":{},"list":[],"n":null,"ok":true}`, i, i)
		addrsOf := []string{
			fmt.Sprintf("aws_instance.web[%d]", i),
			fmt.Sprintf("aws_instance.named[\"key-%d\"]", i),
			fmt.Sprintf("module.net[%d].aws_subnet.s", i),
		}
		for j, a := range addrsOf {
			o := &states.ObjectSrc{AttrsJSON: []byte(nested), Status: states.ObjectReady, SchemaVersion: 2,
				Dependencies:   []addrs.AbsResource{mustRes("aws_vpc.main"), mustRes("aws_security_group.sg")},
				SensitivePaths: []cty.Path{cty.GetAttrPath("tags").IndexString("Name")},
				Private:        []byte(`{"schema_version":"2","timeouts":{"create":600000000000}}`),
			}
			if j == 1 {
				o.IdentityJSON, o.IdentitySchemaVersion = []byte(fmt.Sprintf(`{"id":"i-%d","region":"eu-west-1"}`, i)), &version
				o.Status = states.ObjectTainted
				o.CreateBeforeDestroy = true
			}
			s.SetObject(mustInst(a), o, p)
			if j == 2 {
				s.SetDeposed(mustInst(a), fmt.Sprintf("%08x", i), o, p)
			}
			s.ProviderConfigs[a] = states.ProviderConfigRecord{Provider: p.String(), Hash: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
				Identity: map[string]string{"region": `"eu-west-1"`}}
		}
	}
	s.SetObject(mustInst("aws_vpc.main"), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"vpc-1"}`), Status: states.ObjectReady}, p)
	s.SetObject(mustInst("aws_security_group.sg"), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"sg-1"}`), Status: states.ObjectReady,
		Dependencies: []addrs.AbsResource{mustRes("aws_vpc.main")}}, p)
	return s
}

// TestSizeHint: the writer's buffer is sized from above, so that it never
// grows, and by no more than a quarter, so that it does not hold much
// more memory than the snapshot (beyond the room a small one is given).
func TestSizeHint(t *testing.T) {
	cases := map[string]*states.State{
		"chains of 10": chainsState(2000, 10),
		"one chain":    chainState(300),
		"varied":       variedState(200),
	}
	files, _ := filepath.Glob("testdata/roundtrip/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := Read(data); err == nil {
			cases[filepath.Base(f)] = s
		}
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Write(s)
			if err != nil {
				t.Fatal(err)
			}
			hint := sizeHint(s, newDependencyClosure(s))
			if hint < len(out) {
				t.Errorf("estimate %d is below the snapshot's %d bytes", hint, len(out))
			}
			if limit := len(out) + len(out)/4 + 8192; hint > limit {
				t.Errorf("estimate %d is more than a quarter above the snapshot's %d bytes", hint, len(out))
			}
		})
	}
}
