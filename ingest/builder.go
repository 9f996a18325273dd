package ingest

import (
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

const hexDigits = "0123456789ABCDEF"

// appendRepaired appends s to dst with every byte that is not part of a
// valid UTF-8 sequence written as \xHH, as nginx escapes its logs.
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
// worker owns one; it is not safe for concurrent use. The dictionaries are
// reset after each batch, so every batch carries its own, complete
// dictionaries (no deltas).
type batchBuilder struct {
	mem  memory.Allocator
	rows int // rows per batch

	ts                            *array.TimestampBuilder
	host, method, proto, ua, file *array.BinaryDictionaryBuilder
	ip, target, referer           *array.StringBuilder
	status                        *array.Int32Builder
	bytes, line                   *array.Int64Builder
	n                             int
	dataHint                      [3]int // data bytes of ip, target, referer in the last batch
	scratch                       []byte
	minTime, maxTime              int64
	started                       bool
}

func newBatchBuilder(mem memory.Allocator, rows int) *batchBuilder {
	dict := func(i int) *array.BinaryDictionaryBuilder {
		return array.NewDictionaryBuilder(mem, Schema.Field(i).Type.(*arrow.DictionaryType)).(*array.BinaryDictionaryBuilder)
	}
	return &batchBuilder{
		mem:     mem,
		rows:    rows,
		ts:      array.NewTimestampBuilder(mem, Schema.Field(ColTime).Type.(*arrow.TimestampType)),
		host:    dict(ColHost),
		ip:      array.NewStringBuilder(mem),
		method:  dict(ColMethod),
		target:  array.NewStringBuilder(mem),
		proto:   dict(ColProtocol),
		status:  array.NewInt32Builder(mem),
		bytes:   array.NewInt64Builder(mem),
		referer: array.NewStringBuilder(mem),
		ua:      dict(ColUserAgent),
		file:    dict(ColFile),
		line:    array.NewInt64Builder(mem),
	}
}

// release frees the builders (and any rows not yet flushed).
func (b *batchBuilder) release() {
	for _, x := range []array.Builder{b.ts, b.host, b.ip, b.method, b.target, b.proto, b.status, b.bytes, b.referer, b.ua, b.file, b.line} {
		x.Release()
	}
}

// start reserves room for a batch.
func (b *batchBuilder) start() {
	b.started = true
	for _, x := range []array.Builder{b.ts, b.host, b.ip, b.method, b.target, b.proto, b.status, b.bytes, b.referer, b.ua, b.file, b.line} {
		x.Reserve(b.rows)
	}
	b.ip.ReserveData(b.dataHint[0])
	b.target.ReserveData(b.dataHint[1])
	b.referer.ReserveData(b.dataHint[2])
}

// repaired returns v, or a repaired copy of it in b.scratch when it is not
// valid UTF-8. The copy is valid until the next call.
func (b *batchBuilder) repaired(v []byte) []byte {
	if utf8.Valid(v) {
		return v
	}
	b.scratch = appendRepaired(b.scratch[:0], v)
	return b.scratch
}

func (b *batchBuilder) appendString(sb *array.StringBuilder, v []byte) {
	if v == nil {
		sb.AppendNull()
		return
	}
	sb.BinaryBuilder.Append(b.repaired(v))
}

func (b *batchBuilder) appendDict(db *array.BinaryDictionaryBuilder, v []byte) {
	if v == nil {
		db.AppendNull()
		return
	}
	// Append only fails on a value of the wrong type, impossible here.
	_ = db.Append(b.repaired(v))
}

// add appends one row. It reports whether the batch is full.
func (b *batchBuilder) add(r *logfmt.Row, file []byte, line int64) bool {
	if !b.started {
		b.start()
	}
	b.ts.UnsafeAppend(arrow.Timestamp(r.Time))
	b.appendDict(b.host, r.Host)
	if r.ClientIP == nil {
		b.ip.BinaryBuilder.Append([]byte{})
	} else {
		b.ip.BinaryBuilder.Append(b.repaired(r.ClientIP))
	}
	b.appendDict(b.method, r.Method)
	b.appendString(b.target, r.Target)
	b.appendDict(b.proto, r.Protocol)
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
	b.appendString(b.referer, r.Referer)
	b.appendDict(b.ua, r.UserAgent)
	_ = b.file.Append(file)
	b.line.UnsafeAppend(line)
	b.n++
	return b.n >= b.rows
}

// flush builds the batch of the rows added so far and resets the builders,
// dictionaries included. It returns nil when there are no rows. The caller
// releases the batch.
func (b *batchBuilder) flush() arrow.RecordBatch {
	if b.n == 0 {
		return nil
	}
	b.dataHint = [3]int{b.ip.DataLen(), b.target.DataLen(), b.referer.DataLen()}
	cols := make([]arrow.Array, NumCols)
	cols[ColTime] = b.ts.NewArray()
	cols[ColHost] = b.host.NewArray()
	cols[ColClientIP] = b.ip.NewArray()
	cols[ColMethod] = b.method.NewArray()
	cols[ColTarget] = b.target.NewArray()
	cols[ColProtocol] = b.proto.NewArray()
	cols[ColStatus] = b.status.NewArray()
	cols[ColBytes] = b.bytes.NewArray()
	cols[ColReferer] = b.referer.NewArray()
	cols[ColUserAgent] = b.ua.NewArray()
	cols[ColFile] = b.file.NewArray()
	cols[ColLine] = b.line.NewArray()
	rec := array.NewRecordBatch(Schema, cols, int64(b.n))
	for _, c := range cols {
		c.Release()
	}
	// NewArray keeps a dictionary builder's memo table: without a full reset
	// every batch would carry every value seen so far.
	for _, d := range []*array.BinaryDictionaryBuilder{b.host, b.method, b.proto, b.ua, b.file} {
		d.ResetFull()
	}
	b.n = 0
	b.started = false
	return rec
}
