package ingest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestStrColumnMatchesStringBuilder builds the same rows with strColumn and
// with arrow's StringBuilder, several arrays in a row (so the reservations
// from the last array are exercised, larger and smaller), and requires equal
// arrays: the same nulls, the same empty strings, the same values.
func TestStrColumnMatchesStringBuilder(t *testing.T) {
	mem := memory.NewCheckedAllocator(NewPoolAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	c := newStrColumn(mem)
	defer c.Release()
	for round, rows := range []int{0, 1, 7, 300, 5000, 40, 5000, 6000, 1} {
		sb := array.NewStringBuilder(mem)
		if round%2 == 0 {
			c.Reserve(rows / 2) // less than needed: Append must grow
			c.ReserveData(rows)
		}
		for i := 0; i < rows; i++ {
			switch k := rng.IntN(10); {
			case k == 0:
				c.AppendNull()
				sb.AppendNull()
			case k == 1:
				n := rng.IntN(4)
				c.AppendNulls(n)
				sb.AppendNulls(n)
			case k == 2:
				c.Append(nil) // a valid empty value, not a null
				sb.BinaryBuilder.Append([]byte{})
			case k == 3:
				v := []byte(strings.Repeat("long/", rng.IntN(2000)))
				c.Append(v)
				sb.BinaryBuilder.Append(v)
			default:
				v := []byte("/p/" + strings.Repeat("x", rng.IntN(40)))
				c.Append(v)
				sb.BinaryBuilder.Append(v)
			}
		}
		if got, want := c.Len(), sb.Len(); got != want {
			t.Fatalf("round %d: Len %d, want %d", round, got, want)
		}
		if got, want := c.DataLen(), sb.DataLen(); got != want {
			t.Fatalf("round %d: DataLen %d, want %d", round, got, want)
		}
		got, want := c.NewArray(), sb.NewArray()
		if !array.Equal(got, want) {
			t.Errorf("round %d: arrays differ:\n got %v\nwant %v", round, got, want)
		}
		if got.NullN() != want.NullN() {
			t.Errorf("round %d: %d nulls, want %d", round, got.NullN(), want.NullN())
		}
		if err := got.(*array.String).ValidateFull(); err != nil {
			t.Errorf("round %d: %v", round, err)
		}
		s := got.(*array.String)
		for i := 0; i < s.Len(); i++ {
			if s.IsNull(i) != want.IsNull(i) || !s.IsNull(i) && s.Value(i) != want.(*array.String).Value(i) {
				t.Fatalf("round %d, row %d: %q (null %v), want %q (null %v)", round, i,
					s.Value(i), s.IsNull(i), want.(*array.String).Value(i), want.IsNull(i))
			}
		}
		if got.DataType().ID() != arrow.STRING {
			t.Fatalf("type %v", got.DataType())
		}
		got.Release()
		want.Release()
		sb.Release()
	}
}

// FuzzStrColumn drives strColumn and arrow's StringBuilder with the same
// operations, read from the fuzzer's bytes, and requires equal arrays.
func FuzzStrColumn(f *testing.F) {
	f.Add([]byte("\x00\x01\x02abc\x03\x05\x04"), uint8(3))
	f.Add([]byte("\x02\x02\x02\x00\x00\x01\x09"), uint8(0))
	f.Add([]byte("\x03\xff\xfe\xc3\x28\x04\x00\x03\x01\x02"), uint8(200))
	f.Fuzz(func(t *testing.T, ops []byte, reserve uint8) {
		mem := memory.NewCheckedAllocator(NewPoolAllocator())
		defer mem.AssertSize(t, 0)
		c := newStrColumn(mem)
		defer c.Release()
		for round := 0; round < 2; round++ {
			sb := array.NewStringBuilder(mem)
			c.Reserve(int(reserve))
			c.ReserveData(int(reserve) * 3)
			for i := 0; i < len(ops); i++ {
				switch op := ops[i] % 4; op {
				case 0:
					c.AppendNull()
					sb.AppendNull()
				case 1:
					n := 0
					if i+1 < len(ops) {
						i++
						n = int(ops[i] % 16)
					}
					c.AppendNulls(n)
					sb.AppendNulls(n)
				default:
					// A value of the next few bytes, or of up to 255 copies
					// of them: long values cross the reservations.
					n := int(ops[i] >> 2 % 8)
					v := ops[i+1 : min(len(ops), i+1+n)]
					i += len(v)
					if op == 3 {
						v = bytes.Repeat(v, int(reserve))
					}
					v = RepairUTF8(v) // as the batch builder hands them over
					c.Append(v)
					sb.BinaryBuilder.Append(v)
				}
			}
			got, want := c.NewArray(), sb.NewArray()
			if !array.Equal(got, want) || got.NullN() != want.NullN() {
				t.Fatalf("round %d: got %v, want %v", round, got, want)
			}
			if err := got.(*array.String).ValidateFull(); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			got.Release()
			want.Release()
			sb.Release()
		}
	})
}
