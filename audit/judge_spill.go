package audit

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/bots"
)

// What the judge knows per bot name (its claims, its row of the table "bots")
// is handed to DuckDB while the logs are judged, a batch at a time, when the
// judge spills (spillWhileJudging): an attacker who writes millions of
// invented bot names costs the judge their dict entries only.

// BotsSchema is the schema of the table "bots" (queries/schema.sql), in its
// column order.
var BotsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "bot", Type: arrow.BinaryTypes.String},
	{Name: "operator", Type: arrow.BinaryTypes.String},
	{Name: "purpose", Type: arrow.BinaryTypes.String},
	{Name: "user_triggered", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "bot_id", Type: arrow.PrimitiveTypes.Int32},
}, nil)

// botsRows builds rows of BotsSchema.
type botsRows struct {
	b             *array.RecordBuilder
	bot, op, purp *array.StringBuilder
	user          *array.BooleanBuilder
	id            *array.Int32Builder
}

func newBotsRows(mem memory.Allocator) *botsRows {
	b := array.NewRecordBuilder(mem, BotsSchema)
	return &botsRows{
		b:    b,
		bot:  b.Field(0).(*array.StringBuilder),
		op:   b.Field(1).(*array.StringBuilder),
		purp: b.Field(2).(*array.StringBuilder),
		user: b.Field(3).(*array.BooleanBuilder),
		id:   b.Field(4).(*array.Int32Builder),
	}
}

// append adds the row of the bot name whose dict id is id, as bot and its
// operator rule describe it.
func (r *botsRows) append(name string, id int32, bot bots.Bot, userTriggered bool) {
	r.bot.Append(name)
	r.op.Append(bot.Operator)
	r.purp.Append(bot.Purpose)
	r.user.Append(userTriggered)
	r.id.Append(id)
}

// len returns the number of rows not yet taken.
func (r *botsRows) len() int { return r.id.Len() }

// take returns the rows so far as a record batch (the caller releases it)
// and starts anew.
func (r *botsRows) take() arrow.RecordBatch { return r.b.NewRecordBatch() }

func (r *botsRows) release() { r.b.Release() }

// spilled returns what a judge that spills has to hand to DuckDB beside its
// judged rows: a batch of ClaimsSchema when it holds maxClaims claims, and a
// batch of BotsSchema when it holds maxBotRows bots rows (the caller stores
// and releases them; insertJudged takes all three kinds). It returns nothing
// when the judge does not spill.
func (j *judge) spilled() []arrow.RecordBatch {
	var out []arrow.RecordBatch
	if j.claims.full() {
		out = append(out, j.claims.takeBatch(j.mem))
	}
	if j.spill && j.botsOut.len() >= maxBotRows {
		out = append(out, j.botsOut.take())
	}
	return out
}
