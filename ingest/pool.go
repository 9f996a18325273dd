package ingest

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PoolAllocator is a memory.Allocator that keeps the buffers of released
// record batches for the next ones. Ingest releases every batch after its
// sink returns and builds the next of the same shape, so with Go's allocator
// nearly all of its allocations were fresh memory that Go had to zero and the
// garbage collector to reclaim; the pool recycles them instead.
//
// Buffers are kept per power-of-two size class in a sync.Pool, so the pool
// shrinks when memory is not used, and are zeroed again before reuse, as
// Go's allocator returns them. Like memory.GoAllocator, it returns 64-byte
// aligned buffers. It is safe for concurrent use.
type PoolAllocator struct {
	classes [numClasses]sync.Pool // of *[]byte, each with cap == 1<<class, aligned
}

const (
	alignment  = 64
	minClass   = 6  // 64 B
	numClasses = 29 // up to 256 MiB; larger buffers are not pooled
)

var _ memory.Allocator = (*PoolAllocator)(nil)

// NewPoolAllocator returns an empty PoolAllocator.
func NewPoolAllocator() *PoolAllocator { return &PoolAllocator{} }

// class returns the size class of a buffer of size bytes, or -1 when it is
// too large to pool.
func class(size int) int {
	if size <= 1<<minClass {
		return minClass
	}
	c := bits.Len(uint(size - 1))
	if c >= numClasses {
		return -1
	}
	return c
}

// Allocate returns a zeroed buffer of size bytes.
func (p *PoolAllocator) Allocate(size int) []byte {
	c := class(size)
	if c < 0 {
		return alignedMake(size, size)
	}
	if v := p.classes[c].Get(); v != nil {
		buf := (*v.(*[]byte))[:size]
		clear(buf)
		return buf
	}
	return alignedMake(size, 1<<c)
}

// Reallocate returns a buffer of size bytes holding the contents of b; the
// bytes beyond len(b) are zeroed.
func (p *PoolAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free returns b to the pool.
func (p *PoolAllocator) Free(b []byte) {
	full := b[:cap(b)]
	c := class(len(full))
	if c < 0 || cap(full) != 1<<c || uintptr(unsafe.Pointer(unsafe.SliceData(full)))%alignment != 0 {
		return // not one of ours, or not pooled: left to the garbage collector
	}
	p.classes[c].Put(&full)
}

// alignedMake returns a zeroed slice of length size and capacity capacity
// whose first byte is 64-byte aligned.
func alignedMake(size, capacity int) []byte {
	raw := make([]byte, capacity+alignment)
	off := 0
	if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) % alignment); rem != 0 {
		off = alignment - rem
	}
	return raw[off : off+size : off+capacity]
}
