package states

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// TestSyncStateConcurrent runs writers and readers of the same and of
// different resources at once; run it with -race.
func TestSyncStateConcurrent(t *testing.T) {
	const workers, perWorker = 8, 50
	ss := NewSync(New())
	shared := inst(t, "terraform_data.shared")

	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Add(2)
		go func() { // writer
			defer wg.Done()
			<-start
			for i := range perWorker {
				a := inst(t, fmt.Sprintf(`terraform_data.w%d[%d]`, w%2, w*perWorker+i))
				ss.SetObject(a, object(a.String()), builtin)
				ss.SetObject(shared, object(fmt.Sprint(w)), builtin)
				ss.SetDeposed(a, "dk", object("old"), builtin)
				ss.SetDeposed(a, "dk", nil, builtin)
				ss.SetOutput(fmt.Sprintf("o%d", w), &OutputValue{Value: cty.NumberIntVal(int64(i))})
				if i%10 == 0 {
					ss.SetOutput("transient", &OutputValue{Value: cty.True})
					ss.SetOutput("transient", nil)
				}
			}
		}()
		go func() { // reader
			defer wg.Done()
			<-start
			for i := range perWorker {
				a := inst(t, fmt.Sprintf(`terraform_data.w%d[%d]`, w%2, w*perWorker+i))
				_ = ss.Object(a)
				_ = ss.Object(shared)
				_ = ss.Deposed(a, "dk")
				_ = ss.DeposedKeys(a)
				_, _ = ss.ResourceProvider(a.ContainingResource())
				_ = ss.InstanceKeys(a.ContainingResource())
				_ = ss.Output(fmt.Sprintf("o%d", w))
				if i%10 == 0 {
					snap := ss.Snapshot()
					// The snapshot is the reader's own.
					snap.SetObject(inst(t, "terraform_data.snapshot_only"), object("x"), builtin)
				}
			}
		}()
	}
	close(start)
	wg.Wait()

	s := ss.Snapshot()
	if s.Object(inst(t, "terraform_data.snapshot_only")) != nil {
		t.Error("a snapshot's change reached the shared state")
	}
	if s.Object(shared) == nil {
		t.Error("shared object missing")
	}
	n := 0
	for _, a := range s.AllInstances() {
		if a.Resource.Resource.Name == "shared" {
			continue
		}
		n++
		if o := s.Object(a); o == nil || string(o.AttrsJSON) != `{"id":"`+a.String()+`"}` {
			t.Errorf("%s: %v", a, o)
		}
		if ss.DeposedKeys(a) != nil {
			t.Errorf("%s: deposed objects left", a)
		}
	}
	if n != workers*perWorker {
		t.Errorf("%d objects, want %d", n, workers*perWorker)
	}
	if len(s.Outputs) != workers {
		t.Errorf("outputs: %d", len(s.Outputs))
	}
	for w := range workers {
		if o := ss.Output(fmt.Sprintf("o%d", w)); o == nil || !o.Value.RawEquals(cty.NumberIntVal(perWorker-1)) {
			t.Errorf("o%d = %#v", w, o)
		}
	}
}

func TestSyncStateAccessors(t *testing.T) {
	ss := NewSync(New())
	a := inst(t, "terraform_data.a[3]")
	aws := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws"), Alias: "x"}

	if _, ok := ss.ResourceProvider(a.ContainingResource()); ok {
		t.Error("provider of a missing resource")
	}
	if ss.InstanceKeys(a.ContainingResource()) != nil || ss.DeposedKeys(a) != nil || ss.Deposed(a, "k") != nil || ss.Object(a) != nil {
		t.Error("lookups on an empty state")
	}

	ss.SetObject(a, object("a"), aws)
	ss.SetObject(inst(t, "terraform_data.a[1]"), object("b"), aws)
	ss.SetDeposed(a, "zz", object("z"), aws)
	ss.SetDeposed(a, "aa", object("y"), aws)

	if p, ok := ss.ResourceProvider(a.ContainingResource()); !ok || p.String() != aws.String() {
		t.Errorf("provider %s %v", p, ok)
	}
	if diff := cmp.Diff([]addrs.InstanceKey{addrs.IntKey(1), addrs.IntKey(3)}, ss.InstanceKeys(a.ContainingResource())); diff != "" {
		t.Errorf("instance keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"aa", "zz"}, ss.DeposedKeys(a)); diff != "" {
		t.Errorf("deposed keys (-want +got):\n%s", diff)
	}
	if d := ss.Deposed(a, "zz"); d == nil || string(d.AttrsJSON) != `{"id":"z"}` {
		t.Errorf("deposed zz: %v", d)
	}
	if ss.DeposedKeys(inst(t, "terraform_data.a[2]")) != nil {
		t.Error("deposed keys of a missing instance")
	}

	ss.Lock(func(s *State) {
		s.Lineage = "locked"
	})
	if ss.Snapshot().Lineage != "locked" {
		t.Error("Lock did not give access to the state")
	}
}

// TestSyncStateTake checks that Take hands over the state itself and that
// writes after it never reach the state taken.
func TestSyncStateTake(t *testing.T) {
	base := New()
	ss := NewSync(base)
	a := inst(t, "terraform_data.a")
	ss.SetObject(a, object("a"), builtin)

	got := ss.Take()
	if got != base {
		t.Fatal("Take returned a copy, not the state itself")
	}
	if got.Object(a) == nil {
		t.Fatal("the state taken lost its object")
	}
	late := inst(t, "terraform_data.late")
	ss.SetObject(late, object("late"), builtin)
	ss.SetOutput("o", &OutputValue{Value: cty.True})
	if got.Object(late) != nil || len(got.Outputs) != 0 {
		t.Error("a write after Take reached the state taken")
	}
	if ss.Object(late) == nil {
		t.Error("the walk's state after Take does not keep later writes")
	}
}

func TestSyncProviderRecord(t *testing.T) {
	a, b := inst(t, "terraform_data.a"), inst(t, "terraform_data.b")
	s := New()
	sync := NewSync(s)
	if _, ok := sync.ProviderRecord(a); ok {
		t.Error("record found in a state without records")
	}
	s.ProviderConfigs = map[string]ProviderConfigRecord{a.String(): {Provider: "p", Hash: "h"}}
	if rec, ok := sync.ProviderRecord(a); !ok || rec.Provider != "p" || rec.Hash != "h" {
		t.Errorf("record of %s: %+v, %t", a, rec, ok)
	}
	if _, ok := sync.ProviderRecord(b); ok {
		t.Errorf("record found for %s, which has none", b)
	}
}
