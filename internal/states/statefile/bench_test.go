package statefile

import (
	"fmt"
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// chainState returns the state of n chained terraform_data resources as
// the engine records it: each object lists the one before it.
func chainState(n int) *states.State { return chainsState(n, n) }

// chainsState returns the state of n terraform_data resources in chains
// of run, as `go run ./internal/bench` makes them (-chain 10).
func chainsState(n, run int) *states.State {
	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("terraform")}
	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = "l", 1, "1.11.4"
	for i := 0; i < n; i++ {
		o := &states.ObjectSrc{
			AttrsJSON: []byte(fmt.Sprintf(`{"id":"%08d-0000-0000-0000-000000000000","input":{"value":"start","type":"string"},"output":{"value":"start","type":"string"},"triggers_replace":null}`, i)),
			Status:    states.ObjectReady,
		}
		if i%run != 0 {
			o.Dependencies = []addrs.AbsResource{mustRes(fmt.Sprintf("terraform_data.r%d", i-1))}
		}
		s.SetObject(mustInst(fmt.Sprintf("terraform_data.r%d", i)), o, p)
	}
	return s
}

// BenchmarkWriteChain writes the snapshot of a chain of 2000 resources
// (`go run ./internal/bench`), whose dependency lists make it quadratic.
func BenchmarkWriteChain(b *testing.B) {
	s := chainState(2000)
	b.ReportAllocs()
	for b.Loop() {
		data, err := Write(s)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
}

// BenchmarkReadChain reads that snapshot back.
func BenchmarkReadChain(b *testing.B) {
	data, err := Write(chainState(2000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBench reads the snapshot of 10,000 resources in chains of
// 10, as internal/bench makes them, by each path.
func BenchmarkReadBench(b *testing.B) {
	data, err := Write(chainsState(10000, 10))
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []struct {
		name string
		read func([]byte) (*states.State, error)
	}{{"fast", readFast}, {"current", readCurrent}, {"whole", readWhole}} {
		b.Run(path.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := path.read(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
