package ingest

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestPoolAllocator(t *testing.T) {
	p := NewPoolAllocator()
	for _, size := range []int{0, 1, 63, 64, 65, 1000, 1 << 20, 1<<20 + 1} {
		b := p.Allocate(size)
		if len(b) != size {
			t.Fatalf("Allocate(%d) has len %d", size, len(b))
		}
		if uintptr(unsafe.Pointer(unsafe.SliceData(b[:cap(b)])))%alignment != 0 {
			t.Errorf("Allocate(%d) is not %d-byte aligned", size, alignment)
		}
		for i := range b {
			b[i] = 0xAB // dirty it, then give it back
		}
		p.Free(b)
		c := p.Allocate(size)
		for i, x := range c {
			if x != 0 {
				t.Fatalf("Allocate(%d) after Free: byte %d is %#x, want zero", size, i, x)
			}
		}
		// Growing keeps the contents and zeroes the rest.
		if size > 0 {
			c[0] = 7
			g := p.Reallocate(size*3+10, c)
			if g[0] != 7 || len(g) != size*3+10 {
				t.Fatalf("Reallocate lost the contents")
			}
			for _, x := range g[size:] {
				if x != 0 {
					t.Fatalf("Reallocate: the grown part is not zero")
				}
			}
			p.Free(g)
		}
	}
	// A buffer that is not the pool's own is ignored, not pooled.
	p.Free(make([]byte, 100))
}

// TestPoolAllocatorBuilders builds record batches concurrently through the
// pool, releasing and rebuilding, and checks their contents.
func TestPoolAllocatorBuilders(t *testing.T) {
	p := NewPoolAllocator()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 50; round++ {
				b := array.NewStringBuilder(p)
				ib := array.NewInt64Builder(memory.Allocator(p))
				for i := 0; i < 1000; i++ {
					if i%3 == 0 {
						b.AppendNull()
					} else {
						b.Append("value")
					}
					ib.Append(int64(i * round))
				}
				s, n := b.NewStringArray(), ib.NewInt64Array()
				for i := 0; i < 1000; i++ {
					if s.IsNull(i) != (i%3 == 0) || (!s.IsNull(i) && s.Value(i) != "value") || n.Value(i) != int64(i*round) {
						t.Errorf("round %d row %d: wrong value", round, i)
						return
					}
				}
				s.Release()
				n.Release()
				b.Release()
				ib.Release()
			}
		}()
	}
	wg.Wait()
}
