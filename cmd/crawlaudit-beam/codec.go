package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Column indices of keySchema.
const (
	kcTS = iota
	kcOrder
	kcLine
	kcVerdict
	kcRobotsFetch
	kcVisitBreach
	kcCrawlDelay
	kcRateRequests
	kcRateSeconds
	kcClientIP
	kcOperator
	kcUserTriggered
	kcUserAgent
	kcRule
	kcCrawlDelayIgnored
	kcStatus
	kcBytes
	kcOtherMethod
	kcURL
	kcWait
	kcPrefExposed
)

// dictString is the type of the columns whose values repeat: dictionary
// encoded, each distinct value once per batch.
var dictString = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// keySchema is the schema of the elements that go from the judging step to
// the GroupByKey: the requests of one key (bot, host, identity) from one
// part of the input, the columns of keyRows. An element is one record
// batch of it in the Arrow IPC stream format.
var keySchema = arrow.NewSchema([]arrow.Field{
	kcTS:                {Name: "ts", Type: arrow.PrimitiveTypes.Int64},
	kcOrder:             {Name: "order", Type: arrow.PrimitiveTypes.Int64},
	kcLine:              {Name: "line", Type: arrow.PrimitiveTypes.Int64},
	kcVerdict:           {Name: "verdict", Type: arrow.BinaryTypes.String},
	kcRobotsFetch:       {Name: "robots_fetch", Type: arrow.FixedWidthTypes.Boolean},
	kcVisitBreach:       {Name: "visit_breach", Type: arrow.FixedWidthTypes.Boolean},
	kcCrawlDelay:        {Name: "crawl_delay", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	kcRateRequests:      {Name: "rate_requests", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	kcRateSeconds:       {Name: "rate_seconds", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	kcClientIP:          {Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
	kcOperator:          {Name: "operator", Type: arrow.BinaryTypes.String},
	kcUserTriggered:     {Name: "user_triggered", Type: arrow.FixedWidthTypes.Boolean},
	kcUserAgent:         {Name: "user_agent", Type: dictString, Nullable: true},
	kcRule:              {Name: "rule", Type: dictString, Nullable: true},
	kcCrawlDelayIgnored: {Name: "crawl_delay_ignored", Type: arrow.FixedWidthTypes.Boolean},
	kcStatus:            {Name: "status", Type: arrow.PrimitiveTypes.Int32},
	kcBytes:             {Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
	kcOtherMethod:       {Name: "other_method", Type: arrow.FixedWidthTypes.Boolean},
	kcURL:               {Name: "url", Type: arrow.PrimitiveTypes.Uint64},
	kcWait:              {Name: "wait_s", Type: arrow.PrimitiveTypes.Int32},
	kcPrefExposed:       {Name: "pref_exposed", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// encodeKeyRows returns k as an Arrow IPC stream of one batch of keySchema.
func encodeKeyRows(mem memory.Allocator, k *keyRows) ([]byte, error) {
	if err := k.check(); err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(mem, keySchema)
	defer b.Release()
	n := k.len()
	b.Field(kcTS).(*array.Int64Builder).AppendValues(k.ts, nil)
	b.Field(kcOrder).(*array.Int64Builder).AppendValues(k.order, nil)
	b.Field(kcLine).(*array.Int64Builder).AppendValues(k.line, nil)
	b.Field(kcVerdict).(*array.StringBuilder).AppendValues(k.verdict, nil)
	b.Field(kcRobotsFetch).(*array.BooleanBuilder).AppendValues(k.robotsFetch, nil)
	b.Field(kcVisitBreach).(*array.BooleanBuilder).AppendValues(k.visitBreach, nil)
	b.Field(kcCrawlDelay).(*array.Float64Builder).AppendValues(k.crawlDelay, k.hasDelay)
	b.Field(kcRateRequests).(*array.Int32Builder).AppendValues(k.rateN, k.hasRate)
	b.Field(kcRateSeconds).(*array.Int32Builder).AppendValues(k.rateS, k.hasRate)
	b.Field(kcClientIP).(*array.StringBuilder).AppendValues(k.clientIP, k.hasIP)
	b.Field(kcOperator).(*array.StringBuilder).AppendValues(k.operator, nil)
	b.Field(kcUserTriggered).(*array.BooleanBuilder).AppendValues(k.userTriggered, nil)
	b.Field(kcCrawlDelayIgnored).(*array.BooleanBuilder).AppendValues(k.delayIgnored, nil)
	b.Field(kcStatus).(*array.Int32Builder).AppendValues(k.status, nil)
	b.Field(kcBytes).(*array.Int64Builder).AppendValues(k.bytes, nil)
	b.Field(kcOtherMethod).(*array.BooleanBuilder).AppendValues(k.otherMethod, nil)
	b.Field(kcURL).(*array.Uint64Builder).AppendValues(k.url, nil)
	b.Field(kcWait).(*array.Int32Builder).AppendValues(k.waitS, nil)
	b.Field(kcPrefExposed).(*array.BooleanBuilder).AppendValues(k.prefExposed, nil)
	for _, c := range []struct {
		col  int
		vals []string
		has  []bool
	}{{kcUserAgent, k.userAgent, k.hasUA}, {kcRule, k.rule, k.hasRule}} {
		db := b.Field(c.col).(*array.BinaryDictionaryBuilder)
		for i, v := range c.vals {
			if !c.has[i] {
				db.AppendNull()
				continue
			}
			if err := db.AppendString(v); err != nil {
				return nil, fmt.Errorf("cannot encode a batch of requests: %w", err)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if int(rec.NumRows()) != n {
		return nil, fmt.Errorf("encoded %d rows of %d", rec.NumRows(), n)
	}
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(keySchema), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, fmt.Errorf("cannot encode a batch of requests: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("cannot encode a batch of requests: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeKeyRows appends to k the rows of data, an Arrow IPC stream of
// keySchema batches (encodeKeyRows).
func decodeKeyRows(mem memory.Allocator, data []byte, k *keyRows) error {
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithSchema(keySchema), ipc.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("cannot decode a batch of requests: %w", err)
	}
	defer r.Release()
	// The strings of a batch alias its buffers: each distinct one is
	// copied once.
	strs := map[string]string{}
	str := func(s string) string {
		if c, ok := strs[s]; ok {
			return c
		}
		c := strings.Clone(s)
		strs[c] = c
		return c
	}
	for r.Next() {
		rec := r.RecordBatch()
		ts, ok1 := rec.Column(kcTS).(*array.Int64)
		order, ok2 := rec.Column(kcOrder).(*array.Int64)
		line, ok3 := rec.Column(kcLine).(*array.Int64)
		verdict, ok4 := rec.Column(kcVerdict).(*array.String)
		fetch, ok5 := rec.Column(kcRobotsFetch).(*array.Boolean)
		visit, ok6 := rec.Column(kcVisitBreach).(*array.Boolean)
		delay, ok7 := rec.Column(kcCrawlDelay).(*array.Float64)
		rateN, ok8 := rec.Column(kcRateRequests).(*array.Int32)
		rateS, ok9 := rec.Column(kcRateSeconds).(*array.Int32)
		ip, ok10 := rec.Column(kcClientIP).(*array.String)
		op, ok11 := rec.Column(kcOperator).(*array.String)
		user, ok12 := rec.Column(kcUserTriggered).(*array.Boolean)
		ua, ok13 := rec.Column(kcUserAgent).(*array.Dictionary)
		rule, ok14 := rec.Column(kcRule).(*array.Dictionary)
		ignored, ok15 := rec.Column(kcCrawlDelayIgnored).(*array.Boolean)
		status, ok16 := rec.Column(kcStatus).(*array.Int32)
		size, ok17 := rec.Column(kcBytes).(*array.Int64)
		other, ok18 := rec.Column(kcOtherMethod).(*array.Boolean)
		url, ok19 := rec.Column(kcURL).(*array.Uint64)
		wait, ok20 := rec.Column(kcWait).(*array.Int32)
		exposed, ok21 := rec.Column(kcPrefExposed).(*array.Boolean)
		var uaDict, ruleDict *array.String
		if ok13 && ok14 {
			uaDict, ok13 = ua.Dictionary().(*array.String)
			ruleDict, ok14 = rule.Dictionary().(*array.String)
		}
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9 && ok10 && ok11 && ok12 && ok13 && ok14 && ok15 &&
			ok16 && ok17 && ok18 && ok19 && ok20 && ok21) {
			return fmt.Errorf("cannot decode a batch of requests: schema %s", rec.Schema())
		}
		for i := range int(rec.NumRows()) {
			k.ts = append(k.ts, ts.Value(i))
			k.order = append(k.order, order.Value(i))
			k.line = append(k.line, line.Value(i))
			k.verdict = append(k.verdict, str(verdict.Value(i)))
			k.robotsFetch = append(k.robotsFetch, fetch.Value(i))
			k.visitBreach = append(k.visitBreach, visit.Value(i))
			k.crawlDelay = append(k.crawlDelay, delay.Value(i))
			k.hasDelay = append(k.hasDelay, delay.IsValid(i))
			k.delayIgnored = append(k.delayIgnored, ignored.Value(i))
			k.prefExposed = append(k.prefExposed, exposed.Value(i))
			hasRate := rateN.IsValid(i) && rateS.IsValid(i)
			k.rateN = append(k.rateN, rateN.Value(i))
			k.rateS = append(k.rateS, rateS.Value(i))
			k.hasRate = append(k.hasRate, hasRate)
			if ip.IsValid(i) {
				k.clientIP = append(k.clientIP, str(ip.Value(i)))
			} else {
				k.clientIP = append(k.clientIP, "")
			}
			k.hasIP = append(k.hasIP, ip.IsValid(i))
			k.operator = append(k.operator, str(op.Value(i)))
			k.userTriggered = append(k.userTriggered, user.Value(i))
			k.status = append(k.status, status.Value(i))
			k.bytes = append(k.bytes, size.Value(i))
			k.otherMethod = append(k.otherMethod, other.Value(i))
			k.url = append(k.url, url.Value(i))
			k.waitS = append(k.waitS, wait.Value(i))
			for _, c := range []struct {
				col  *array.Dictionary
				dict *array.String
				vals *[]string
				has  *[]bool
			}{{ua, uaDict, &k.userAgent, &k.hasUA}, {rule, ruleDict, &k.rule, &k.hasRule}} {
				v := ""
				valid := c.col.IsValid(i)
				if valid {
					idx := c.col.GetValueIndex(i)
					if idx < 0 || idx >= c.dict.Len() {
						return fmt.Errorf("cannot decode a batch of requests: dictionary index %d of %d", idx, c.dict.Len())
					}
					v = str(c.dict.Value(idx))
				}
				*c.vals = append(*c.vals, v)
				*c.has = append(*c.has, valid)
			}
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("cannot decode a batch of requests: %w", err)
	}
	return nil
}
