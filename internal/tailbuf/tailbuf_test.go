package tailbuf

import "testing"

func TestBuffer(t *testing.T) {
	tb := New(8)
	for _, tc := range []struct{ write, want string }{
		{"hello ", "hello "},
		{"world", "lo world"},
		{"0123456789", "23456789"},
		{"", "23456789"},
	} {
		_, _ = tb.Write([]byte(tc.write))
		if got := tb.String(); got != tc.want {
			t.Errorf("after writing %q: tail %q, want %q", tc.write, got, tc.want)
		}
	}
}

// TestBufferMatchesTail: after any sequence of writes, the buffer holds
// exactly the last max bytes of everything written.
func TestBufferMatchesTail(t *testing.T) {
	for _, max := range []int{1, 3, 7, 16} {
		tb := New(max)
		var all []byte
		for i := 0; i < 200; i++ {
			chunk := make([]byte, (i*7)%(2*max+1))
			for j := range chunk {
				chunk[j] = byte('a' + (i+j)%26)
			}
			_, _ = tb.Write(chunk)
			all = append(all, chunk...)
			want := all
			if len(want) > max {
				want = want[len(want)-max:]
			}
			if got := tb.String(); got != string(want) {
				t.Fatalf("max %d, after write %d: %q, want %q", max, i, got, want)
			}
		}
	}
}

func BenchmarkBufferLines(b *testing.B) {
	tb := New(16 << 10)
	line := make([]byte, 500)
	b.SetBytes(int64(len(line)))
	for i := 0; i < b.N; i++ {
		_, _ = tb.Write(line)
	}
}
