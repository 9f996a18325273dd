package ingest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// strColumn builds a utf8 column by writing its validity bits, offsets and
// bytes into the buffers directly. array.StringBuilder's Append checks the
// row and byte capacity and calls the offset writer through a function value
// on every row; a batch's rows are reserved once, so here a row is a bounds
// check, a copy and a store.
//
// The buffers come from mem zeroed (as every memory.Allocator returns them),
// so a null row only advances the count: its validity bit is already clear.
type strColumn struct {
	mem                  memory.Allocator
	valid, offsets, data *memory.Buffer
	bits                 []byte  // valid's bytes, to its capacity
	offs                 []int32 // offsets' values, to its capacity
	bytes                []byte  // data's bytes, to its capacity
	n, nulls             int
	dataLen              int
	// lastN and lastData are the rows and bytes of the last array built,
	// reserved (the bytes with a quarter more) when the next one starts:
	// growing a full buffer copies all of it.
	lastN, lastData int
}

func newStrColumn(mem memory.Allocator) *strColumn {
	return &strColumn{mem: mem}
}

// Len returns the number of rows appended since the last newArray.
func (c *strColumn) Len() int { return c.n }

// DataLen returns the number of bytes appended since the last newArray.
func (c *strColumn) DataLen() int { return c.dataLen }

// Reserve makes room for n more rows.
func (c *strColumn) Reserve(n int) {
	rows := c.n + n
	if c.offsets == nil {
		c.valid = memory.NewResizableBuffer(c.mem)
		c.offsets = memory.NewResizableBuffer(c.mem)
		c.data = memory.NewResizableBuffer(c.mem)
		rows = max(rows, c.lastN)
		if c.lastData > 0 {
			c.data.Reserve(c.lastData + c.lastData/4)
			c.bytes = c.data.Buf()
		}
	}
	if rows+1 <= len(c.offs) {
		return
	}
	if rows < 2*c.n {
		rows = 2 * c.n // rows past a reservation grow geometrically
	}
	c.offsets.Reserve((rows + 1) * arrow.Int32SizeBytes)
	c.offs = arrow.Int32Traits.CastFromBytes(c.offsets.Buf())
	// The bitmap covers every row the offsets have room for (their
	// capacity is rounded up), as Append checks only the offsets.
	c.valid.Reserve(int(bitutil.BytesForBits(int64(len(c.offs)))))
	c.bits = c.valid.Buf()
}

// ReserveData makes room for n more bytes.
func (c *strColumn) ReserveData(n int) {
	if c.data == nil {
		c.Reserve(0)
	}
	if c.dataLen+n <= len(c.bytes) {
		return
	}
	size := c.dataLen + n
	if size < 2*c.dataLen {
		size = 2 * c.dataLen
	}
	c.data.Reserve(size)
	c.bytes = c.data.Buf()
}

// Append appends v as a valid row.
func (c *strColumn) Append(v []byte) {
	if c.n+1 >= len(c.offs) {
		c.Reserve(1)
	}
	if c.dataLen+len(v) > len(c.bytes) {
		c.ReserveData(len(v))
	}
	c.dataLen += copy(c.bytes[c.dataLen:], v)
	c.bits[c.n>>3] |= 1 << (c.n & 7)
	c.n++
	c.offs[c.n] = int32(c.dataLen)
}

// AppendNull appends a null row.
func (c *strColumn) AppendNull() {
	if c.n+1 >= len(c.offs) {
		c.Reserve(1)
	}
	c.n++
	c.nulls++
	c.offs[c.n] = int32(c.dataLen)
}

// AppendNulls appends n null rows.
func (c *strColumn) AppendNulls(n int) {
	if n <= 0 {
		return
	}
	c.Reserve(n)
	for i := c.n + 1; i <= c.n+n; i++ {
		c.offs[i] = int32(c.dataLen)
	}
	c.n += n
	c.nulls += n
}

// NewArray returns the rows appended so far as an array and starts anew;
// the array owns the buffers.
func (c *strColumn) NewArray() arrow.Array {
	if c.offsets == nil {
		c.Reserve(0)
	}
	c.valid.ResizeNoShrink(int(bitutil.BytesForBits(int64(c.n))))
	c.offsets.ResizeNoShrink((c.n + 1) * arrow.Int32SizeBytes)
	c.data.ResizeNoShrink(c.dataLen)
	if c.data.Cap() == 0 {
		// An empty, not a nil, value buffer, as array.StringBuilder
		// gives: readers take a nil one for all values null.
		c.data.Release()
		c.data = memory.NewBufferBytes([]byte{})
	}
	// The validity bitmap is kept when there is no null, as
	// array.StringBuilder keeps it.
	bufs := []*memory.Buffer{c.valid, c.offsets, c.data}
	data := array.NewData(arrow.BinaryTypes.String, c.n, bufs, nil, c.nulls, 0)
	a := array.MakeFromData(data)
	data.Release()
	n, dataLen := c.n, c.dataLen
	c.Release()
	c.lastN, c.lastData = n, dataLen
	return a
}

// Release frees the buffers of the rows not yet returned by NewArray.
func (c *strColumn) Release() {
	for _, b := range []*memory.Buffer{c.valid, c.offsets, c.data} {
		if b != nil {
			b.Release()
		}
	}
	*c = strColumn{mem: c.mem}
}
