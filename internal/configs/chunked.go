package configs

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// chunkSize is the size of the pieces a large native-syntax file is
// parsed in. Small pieces allocate less in all: the token slice grows by
// appending, by a factor that falls to 1.25 once it holds a few hundred
// tokens, so the allocations of a piece of 64 KB (about 16,000 tokens)
// add up to five times its final slice; a piece of 4 KB stays near the
// doubling regime. At 10,000 resources: 140 MB allocated to load the
// module with 64 KB, 100 MB with 4 KB (BenchmarkLoadChain); smaller
// pieces gain nothing more.
const chunkSize = 4 << 10

// parseChunked parses a large native-syntax file in pieces of about size
// bytes, cut after a line holding only "}", and joins the pieces' bodies.
// hclsyntax lexes a whole file into one token slice before parsing it: for
// a file of 10,000 resources that is over 100 MB of allocations, half of
// it live at once, for a slice thrown away straight after. Pieces keep it
// to tens of kilobytes.
//
// A cut is only sound where the file's top level is, between two blocks.
// Any cut elsewhere (inside a block, a heredoc, a comment or an
// expression) leaves the piece before it unclosed, and hclsyntax reports
// that: so parseChunked gives up (false) whenever a piece has any
// diagnostic, or an argument is set in two pieces, and the caller parses
// the file whole, with hclsyntax's own diagnostics. What it returns is
// what hclsyntax.ParseConfig returns for the whole file.
func parseChunked(src []byte, filename string, size int) (*hcl.File, bool) {
	cuts := chunkCuts(src, size)
	if len(cuts) == 0 {
		return nil, false
	}
	f, diags := hclsyntax.ParseConfig(nil, filename, hcl.InitialPos)
	root, ok := f.Body.(*hclsyntax.Body)
	if diags.HasErrors() || !ok {
		return nil, false
	}
	// The pieces are parsed on every core, in turn, and joined in order:
	// each piece's start position comes from the lines before it.
	type piece struct {
		start hcl.Pos
		end   int
		body  *hclsyntax.Body
		ok    bool
	}
	pieces := make([]piece, len(cuts)+1)
	start := hcl.InitialPos
	for i := range pieces {
		end := len(src)
		if i < len(cuts) {
			end = cuts[i]
		}
		pieces[i] = piece{start: start, end: end}
		start = hcl.Pos{Byte: end, Line: start.Line + bytes.Count(src[start.Byte:end], []byte{'\n'}), Column: 1}
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pieces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(pieces) {
					return
				}
				p := &pieces[i]
				pf, diags := hclsyntax.ParseConfig(src[p.start.Byte:p.end], filename, p.start)
				p.body, p.ok = pf.Body.(*hclsyntax.Body)
				if len(diags) > 0 || !p.ok {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() {
		return nil, false
	}
	attrs := hclsyntax.Attributes{}
	n := 0
	for _, p := range pieces {
		n += len(p.body.Blocks)
	}
	blocks := make(hclsyntax.Blocks, 0, n)
	for _, p := range pieces {
		for name, a := range p.body.Attributes {
			if _, dup := attrs[name]; dup {
				return nil, false
			}
			attrs[name] = a
		}
		blocks = append(blocks, p.body.Blocks...)
	}
	first, last := pieces[0].body, pieces[len(pieces)-1].body
	// The shell's navigation (for diagnostics' context) points at root.
	root.Attributes, root.Blocks = attrs, blocks
	root.SrcRange = hcl.RangeBetween(first.SrcRange, last.SrcRange)
	root.EndRange = last.EndRange
	f.Bytes = src
	return f, true
}

// chunkCuts returns the offsets at which to cut src: each just after a
// "\n}\n", the first at least size bytes in and each next at least size
// bytes after the one before. None for a file under twice size.
func chunkCuts(src []byte, size int) []int {
	if len(src) < 2*size {
		return nil
	}
	var cuts []int
	for pos := size; pos < len(src); {
		i := bytes.Index(src[pos:], []byte("\n}\n"))
		if i < 0 {
			break
		}
		cut := pos + i + 3
		if cut >= len(src) {
			break
		}
		cuts = append(cuts, cut)
		pos = cut + size
	}
	return cuts
}
