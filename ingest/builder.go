package ingest

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

const hexDigits = "0123456789ABCDEF"

// RepairUTF8 returns s as the columns of a batch hold it: s itself when it
// is valid UTF-8, else a copy with every byte that is not part of a valid
// sequence written as \xHH, as nginx escapes its logs.
func RepairUTF8(s []byte) []byte {
	if utf8.Valid(s) {
		return s
	}
	return appendRepaired(nil, s)
}

// appendRepaired appends s to dst with every byte that is not part of a
// valid UTF-8 sequence written as \xHH.
func appendRepaired(dst, s []byte) []byte {
	for len(s) > 0 {
		c := s[0]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			s = s[1:]
			continue
		}
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			s = s[1:]
			continue
		}
		dst = append(dst, s[:size]...)
		s = s[size:]
	}
	return dst
}

// batchBuilder accumulates rows into an Arrow record batch of Schema. Each
// worker owns one; it is not safe for concurrent use. Every batch carries its
// own, complete dictionaries (no deltas), holding only the values of its
// rows.
// maxBatchBytes cuts a batch early when its lines hold this many bytes:
// rows of 60 KB URLs would otherwise make batches of hundreds of
// megabytes, and an audit's memory must stay bounded whatever the
// input.
const maxBatchBytes = 8 << 20

type batchBuilder struct {
	mem  memory.Allocator
	rows int // rows per batch

	ts                            *array.TimestampBuilder
	host, method, proto, ua, file *dictColumn
	ip, target, referer           *strColumn
	status                        *array.Int32Builder
	bytes, line                   *array.Int64Builder
	n                             int
	lineBytes                     int    // bytes of the lines in the batch being built
	dataHint                      [4]int // data bytes of ip, target, referer, ff in the last batch
	scratch                       []byte
	started                       bool
	// ff is the forwarded_for column, filled lazily: it holds the rows up
	// to the last one with the field, and flush pads it with nulls, so that
	// the rows of logs without the field (most logs) cost one nil check.
	ff *strColumn
	// curLine and lineASCII: the line being added; fields inside an ASCII
	// line need no UTF-8 check.
	curLine   []byte
	lineASCII bool
	// noProto, noReferer, noForwarded: columns left null (Options.Skip).
	noProto, noReferer, noForwarded bool
	// sparse holds the scheme, signature and Retry-After columns, which most logs never
	// fill (see sparseColumn).
	sparse [numSparse]sparseColumn
}

// The sparse columns, in the order of builder.sparse.
const (
	spScheme = iota
	spSigAgent
	spSigInput
	spSignature
	spRetryAfter
	numSparse
)

// sparseCols maps builder.sparse to the columns of Schema.
var sparseCols = [numSparse]int{ColScheme, ColSignatureAgent, ColSignatureInput, ColSignature, ColRetryAfter}

// sparseColumn is a utf8 column filled lazily, like forwarded_for: it holds
// the rows up to the last one with a value, and flush pads it with nulls, so
// that a log without the field pays one nil check per row.
type sparseColumn struct {
	sb   *strColumn
	hint int // data bytes in the last batch
	skip bool
}

// skip makes the builder leave the columns of cols null (see Options.Skip).
func (b *batchBuilder) skip(cols []int) {
	for _, c := range cols {
		switch c {
		case ColProtocol:
			b.noProto = true
		case ColReferer:
			b.noReferer = true
		case ColForwardedFor:
			b.noForwarded = true
		default:
			for i, sc := range sparseCols {
				if c == sc {
					b.sparse[i].skip = true
				}
			}
		}
	}
}

// dictColumn builds a dictionary<int32, utf8> column: the indices, and the
// distinct values of the batch in order of first appearance. It replaces
// array.BinaryDictionaryBuilder on the hot path: a Go map lookup plus a
// cache of the last value (runs of one method, protocol or file are the
// rule) cost less than arrow's memo table, and the dictionary is naturally
// per batch (arrow's builder keeps its memo table across NewArray calls).
type dictColumn struct {
	dt      *arrow.DictionaryType
	idx     *array.Int32Builder
	values  *strColumn
	m       map[string]int32
	last    []byte
	lastIdx int32
	hasLast bool
}

func newDictColumn(mem memory.Allocator, dt *arrow.DictionaryType) *dictColumn {
	return &dictColumn{dt: dt, idx: array.NewInt32Builder(mem), values: newStrColumn(mem), m: map[string]int32{}}
}

// append appends v, or a null for a nil v. The caller has reserved room.
func (d *dictColumn) append(v []byte) {
	if v == nil {
		d.idx.UnsafeAppendBoolToBitmap(false)
		return
	}
	if d.hasLast && string(v) == string(d.last) {
		d.idx.UnsafeAppend(d.lastIdx)
		return
	}
	i, ok := d.m[string(v)]
	if !ok {
		i = int32(len(d.m))
		d.m[string(v)] = i
		d.values.Append(v)
	}
	d.last = append(d.last[:0], v...)
	d.lastIdx, d.hasLast = i, true
	d.idx.UnsafeAppend(i)
}

// newArray returns the column built so far and starts a new dictionary.
func (d *dictColumn) newArray() arrow.Array {
	idx := d.idx.NewArray()
	defer idx.Release()
	vals := d.values.NewArray()
	defer vals.Release()
	clear(d.m)
	d.hasLast = false
	return array.NewDictionaryArray(d.dt, idx, vals)
}

func (d *dictColumn) release() {
	d.idx.Release()
	d.values.Release()
}

func newBatchBuilder(mem memory.Allocator, rows int) *batchBuilder {
	dict := func(i int) *dictColumn {
		return newDictColumn(mem, Schema.Field(i).Type.(*arrow.DictionaryType))
	}
	b := &batchBuilder{
		mem:     mem,
		rows:    rows,
		ts:      array.NewTimestampBuilder(mem, Schema.Field(ColTime).Type.(*arrow.TimestampType)),
		host:    dict(ColHost),
		ip:      newStrColumn(mem),
		method:  dict(ColMethod),
		target:  newStrColumn(mem),
		proto:   dict(ColProtocol),
		status:  array.NewInt32Builder(mem),
		bytes:   array.NewInt64Builder(mem),
		referer: newStrColumn(mem),
		ua:      dict(ColUserAgent),
		file:    dict(ColFile),
		line:    array.NewInt64Builder(mem),
		ff:      newStrColumn(mem),
	}
	for i := range b.sparse {
		b.sparse[i].sb = newStrColumn(mem)
	}
	return b
}

// release frees the builders (and any rows not yet flushed).
func (b *batchBuilder) release() {
	for _, x := range []array.Builder{b.ts, b.status, b.bytes, b.line} {
		x.Release()
	}
	for _, c := range []*strColumn{b.ip, b.target, b.referer, b.ff} {
		c.Release()
	}
	for _, d := range []*dictColumn{b.host, b.method, b.proto, b.ua, b.file} {
		d.release()
	}
	for i := range b.sparse {
		b.sparse[i].sb.Release()
	}
}

// start reserves room for a batch.
func (b *batchBuilder) start() {
	b.started = true
	for _, x := range []array.Builder{b.ts, b.status, b.bytes, b.line} {
		x.Reserve(b.rows)
	}
	b.ip.Reserve(b.rows)
	b.target.Reserve(b.rows)
	for _, d := range []*dictColumn{b.host, b.method, b.ua, b.file} {
		d.idx.Reserve(b.rows)
	}
	if !b.noProto {
		b.proto.idx.Reserve(b.rows)
	}
	if !b.noReferer {
		b.referer.Reserve(b.rows)
		b.referer.ReserveData(b.dataHint[2])
	}
	b.ip.ReserveData(b.dataHint[0])
	b.target.ReserveData(b.dataHint[1])
}

// repaired returns v, or a repaired copy of it in b.scratch when it is not
// valid UTF-8. The copy is valid until the next call.
func (b *batchBuilder) repaired(v []byte) []byte {
	if b.lineASCII && within(b.curLine, v) || utf8.Valid(v) {
		return v
	}
	b.scratch = appendRepaired(b.scratch[:0], v)
	return b.scratch
}

func (b *batchBuilder) appendString(sb *strColumn, v []byte) {
	if v == nil {
		sb.AppendNull()
		return
	}
	sb.Append(b.repaired(v))
}

func (b *batchBuilder) appendDict(d *dictColumn, v []byte) {
	if v == nil {
		d.append(nil)
		return
	}
	d.append(b.repaired(v))
}

// within reports whether field is a subslice of line.
func within(line, field []byte) bool {
	if len(field) == 0 || len(line) == 0 {
		return len(field) == 0
	}
	l0 := uintptr(unsafe.Pointer(unsafe.SliceData(line)))
	f0 := uintptr(unsafe.Pointer(unsafe.SliceData(field)))
	return f0 >= l0 && f0+uintptr(len(field)) <= l0+uintptr(len(line))
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s []byte) bool {
	for len(s) >= 8 {
		if binary.LittleEndian.Uint64(s)&0x8080808080808080 != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// add appends one row parsed from line (fields of r may alias it). It
// reports whether the batch is full.
func (b *batchBuilder) add(r *logfmt.Row, line []byte, file []byte, lineNo int64) bool {
	if !b.started {
		b.start()
	}
	b.curLine, b.lineASCII = line, isASCII(line)
	b.ts.UnsafeAppend(arrow.Timestamp(r.Time))
	b.appendDict(b.host, r.Host)
	if r.ClientIP == nil {
		b.ip.Append(nil)
	} else {
		b.ip.Append(b.repaired(r.ClientIP))
	}
	b.appendDict(b.method, r.Method)
	b.appendString(b.target, r.Target)
	if !b.noProto {
		b.appendDict(b.proto, r.Protocol)
	}
	if r.Status < 0 {
		b.status.UnsafeAppendBoolToBitmap(false)
	} else {
		b.status.UnsafeAppend(r.Status)
	}
	if r.Bytes < 0 {
		b.bytes.UnsafeAppendBoolToBitmap(false)
	} else {
		b.bytes.UnsafeAppend(r.Bytes)
	}
	if !b.noReferer {
		b.appendString(b.referer, r.Referer)
	}
	b.appendDict(b.ua, r.UserAgent)
	b.file.append(file)
	b.line.UnsafeAppend(lineNo)
	if r.ForwardedFor != nil && !b.noForwarded {
		b.appendForwarded(r.ForwardedFor)
	}
	if r.Scheme != nil || r.SignatureAgent != nil || r.SignatureInput != nil || r.Signature != nil || r.RetryAfter != nil {
		for i, v := range [numSparse][]byte{r.Scheme, r.SignatureAgent, r.SignatureInput, r.Signature, r.RetryAfter} {
			if v != nil && !b.sparse[i].skip {
				b.appendSparse(&b.sparse[i], v)
			}
		}
	}
	b.lineBytes += len(line)
	b.n++
	return b.n >= b.rows || b.lineBytes >= maxBatchBytes
}

// appendForwarded appends the forwarded_for value of row b.n, after nulls
// for the rows before it that had none.
func (b *batchBuilder) appendForwarded(v []byte) {
	if b.ff.Len() == 0 {
		b.ff.Reserve(b.rows)
		b.ff.ReserveData(b.dataHint[3])
	}
	b.ff.AppendNulls(b.n - b.ff.Len())
	b.ff.Append(b.repaired(v))
}

// appendSparse appends the value of row b.n to c, after nulls for the rows
// before it that had none.
func (b *batchBuilder) appendSparse(c *sparseColumn, v []byte) {
	if c.sb.Len() == 0 {
		c.sb.Reserve(b.rows)
		c.sb.ReserveData(c.hint)
	}
	c.sb.AppendNulls(b.n - c.sb.Len())
	c.sb.Append(b.repaired(v))
}

// flush builds the batch of the rows added so far and resets the builders,
// dictionaries included. It returns nil when there are no rows. The caller
// releases the batch.
func (b *batchBuilder) flush() arrow.RecordBatch {
	if b.n == 0 {
		return nil
	}
	b.lineBytes = 0
	b.ff.AppendNulls(b.n - b.ff.Len()) // the rows after the last with the field
	b.dataHint = [4]int{b.ip.DataLen(), b.target.DataLen(), b.referer.DataLen(), b.ff.DataLen()}
	cols := make([]arrow.Array, NumCols)
	cols[ColTime] = b.ts.NewArray()
	cols[ColHost] = b.host.newArray()
	cols[ColClientIP] = b.ip.NewArray()
	cols[ColMethod] = b.method.newArray()
	cols[ColTarget] = b.target.NewArray()
	if b.noProto {
		cols[ColProtocol] = array.MakeArrayOfNull(b.mem, Schema.Field(ColProtocol).Type, b.n)
	} else {
		cols[ColProtocol] = b.proto.newArray()
	}
	cols[ColStatus] = b.status.NewArray()
	cols[ColBytes] = b.bytes.NewArray()
	if b.noReferer {
		cols[ColReferer] = array.MakeArrayOfNull(b.mem, Schema.Field(ColReferer).Type, b.n)
	} else {
		cols[ColReferer] = b.referer.NewArray()
	}
	cols[ColUserAgent] = b.ua.newArray()
	cols[ColFile] = b.file.newArray()
	cols[ColLine] = b.line.NewArray()
	cols[ColForwardedFor] = b.ff.NewArray()
	for i := range b.sparse {
		c := &b.sparse[i]
		c.sb.AppendNulls(b.n - c.sb.Len())
		c.hint = c.sb.DataLen()
		cols[sparseCols[i]] = c.sb.NewArray()
	}
	rec := array.NewRecordBatch(Schema, cols, int64(b.n))
	for _, c := range cols {
		c.Release()
	}
	b.n = 0
	b.started = false
	b.curLine = nil
	return rec
}
