package states

import (
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
)

func TestMove(t *testing.T) {
	a := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "a"}.Absolute(addrs.RootModuleInstance)
	b := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "b"}.Absolute(addrs.RootModuleInstance)
	p := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	s := New()
	s.SetObject(a.Instance(addrs.IntKey(0)), &ObjectSrc{AttrsJSON: []byte(`{"n":0}`)}, p)
	s.SetObject(a.Instance(addrs.IntKey(1)), &ObjectSrc{AttrsJSON: []byte(`{"n":1}`)}, p)

	if !s.MoveInstance(a.Instance(addrs.IntKey(1)), a.Instance(addrs.StringKey("x"))) {
		t.Fatal("instance move refused")
	}
	if s.Object(a.Instance(addrs.IntKey(1))) != nil || string(s.Object(a.Instance(addrs.StringKey("x"))).AttrsJSON) != `{"n":1}` {
		t.Fatal("instance not moved")
	}
	if s.MoveInstance(a.Instance(addrs.IntKey(0)), a.Instance(addrs.StringKey("x"))) {
		t.Fatal("a move onto an existing instance must be refused")
	}
	if !s.MoveResource(a, b) || s.Resource(a) != nil || len(s.Resource(b).Instances) != 2 || s.Resource(b).Addr.String() != "t.b" {
		t.Fatal("resource not moved")
	}
	if s.MoveResource(a, b) {
		t.Fatal("moving a missing resource must be refused")
	}
}
