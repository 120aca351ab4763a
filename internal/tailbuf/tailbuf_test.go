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
