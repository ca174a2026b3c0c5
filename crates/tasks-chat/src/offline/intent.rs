//! Which action a message asks for, and of which kind: done, cancel or move; a deadline said is never a done.

use super::*;

/// Returns true when a message is a date and words that name a task, nothing else: no
/// verb, no question.
pub(super) fn bare_date_move(tokens: &[&str], date: Option<DateSpan>, s: &Situation<'_>) -> bool {
    let Some(d) = date else { return false };
    let outside = |i: &usize| *i < d.start || *i >= d.end;
    let blocking = |t: &&str| t.ends_with('?') || SMALL_TALK.contains(t) || WEAK_MOVE_WORDS.contains(t);
    if (0..tokens.len()).filter(outside).any(|i| blocking(&tokens[i])) {
        return false;
    }
    let (objects, verbs) = mention_skipping(tokens, Some(d), &[]);
    let task_verbs: Vec<&str> =
        (0..tokens.len()).filter(outside).map(|i| tokens[i]).filter(|t| is_task_verb(t)).collect();
    if task_verbs.is_empty() {
        return verbs.is_empty() && !objects.is_empty() && target(&objects, &verbs, s.tasks) != Resolution::Nothing;
    }
    // "balcony door fix next month": a task verb is the title's own word, said again —
    // the task's words and a date still.
    let Resolution::One(i) = target(&objects, &verbs, s.tasks) else { return false };
    task_verbs
        .iter()
        .all(|v| matching::words(v).first().is_some_and(|w| matching::fit_to_title(w, &s.tasks[i]).is_some()))
}

/// Returns true when a message with a date is an open task said again, verb and all:
/// "send madina the receipts this week" for "Send Madina the school receipts" — the
/// task's date, not a second task (which the duplicate check would refuse anyway).
pub(super) fn restated_with_a_date(tokens: &[&str], date: Option<DateSpan>, s: &Situation<'_>) -> bool {
    let Some(d) = date else { return false };
    let (objects, verbs) = mention_skipping(tokens, Some(d), &[]);
    if objects.is_empty() || verbs.is_empty() {
        return false;
    }
    let Resolution::One(i) = target(&objects, &verbs, s.tasks) else { return false };
    let task = &s.tasks[i];
    let verb_words = matching::words(&verbs.join(" "));
    // "finish the jupiter slides in 2 days", «доделать план к четвергу»: a verb of
    // finishing says to do the task itself, whatever its own verb.
    let finishing = verbs.iter().all(|v| FINISHING_VERBS.contains(&v.as_str()));
    explains_all(&matching::words(&objects.join(" ")), task)
        && (finishing || verb_words.iter().any(|v| starts_with_verb(task, v)))
        && !thin(&objects, &verbs, task)
}

/// Verbs of finishing whatever the task is: with a date and an open task's words, a
/// deadline for that task, not a new one.
pub(super) const FINISHING_VERBS: &[&str] =
    &["finish", "complete", "wrap", "закончить", "доделать", "завершить", "дописать", "закончи", "доделай"];

/// "delete everything", «перенеси всё»: an action on many tasks at once, which the
/// conversation does not take from one phrase (seed 001: no batch operations).
pub(super) fn is_batch(tokens: &[&str]) -> bool {
    // ("clear all my overdue tasks", "clear everything from inbox": clearing is a batch
    // cancel or close, whichever it means.)
    let marker = |t: &&str| {
        CANCEL_WORDS.contains(t)
            || MOVE_WORDS.contains(t)
            || DONE_WORDS.contains(t)
            || MARK_WORDS.contains(t)
            || matches!(*t, "clear" | "очисти")
    };
    tokens.windows(2).any(|w| marker(&w[0]) && BATCH_WORDS.contains(&w[1]))
        || (tokens.len() <= 2 && tokens.iter().any(|t| BATCH_WORDS.contains(t)) && tokens.iter().any(marker))
}

pub(super) fn deadline_of(d: DateSpan) -> Deadline {
    let kind = match d.due.kind {
        tasks_text::DueKind::Day => DeadlineKind::Day,
        tasks_text::DueKind::Week => DeadlineKind::Week,
    };
    Deadline { kind, date: Some(d.due.date) }
}

/// Returns the action words say, if any: cancel, then move, then done (a done word or a
/// verb in the past tense).
pub(super) fn intent_of(tokens: &[&str], date: Option<DateSpan>, arrow: bool, today: Date) -> Option<Intent> {
    let intent = intent_of_words(tokens, date, arrow);
    // "the fence stain done monday", "tango classes paid by the 5th": a done word right
    // before a day to come, or a deadline's preposition before it, says when it is to
    // be done — no day ahead is when it was.
    let ahead = date.is_some_and(|d| {
        d.due.date > today
            && ((d.start > 0 && DONE_WORDS.contains(&tokens[d.start - 1]) && !is_task_verb(tokens[d.start - 1]))
                || deadline_preposition_at(tokens, d))
    });
    if intent == Some(Intent::Done) && ahead { Some(Intent::Move) } else { intent }
}

/// Returns the action the words say, before the date is weighed against today.
fn intent_of_words(tokens: &[&str], date: Option<DateSpan>, arrow: bool) -> Option<Intent> {
    let has_date = date.is_some();
    let has = |list: &[&str]| tokens.iter().any(|t| list.contains(t));
    let not_needed = tokens.windows(2).any(|w| {
        w[0] == "не" && matches!(w[1], "надо" | "нужно" | "нужна" | "нужен" | "нужны" | "актуально" | "актуальна")
    }) || tokens
        .windows(2)
        .any(|w| matches!((w[0], w[1]), ("never", "mind") | ("not", "needed") | ("no", "longer") | ("no", "need")));
    // «пометь как выполненную», "mark … as finished": after a mark word, a word of done —
    // even when the task's own words hold a cancel ("mark cancel the old phone plan as
    // done").
    let marked = tokens.first().is_some_and(|t| MARK_WORDS.contains(t));
    let done_form =
        |t: &&str| ["выполнен", "сделан", "готов", "закрыт", "куплен", "оплачен"].iter().any(|s| t.starts_with(s));
    // "mark … as cancelled", «пометь отменённой: …»: a cancel, though "cancelled" is a past.
    let cancel_form =
        |t: &&str| matches!(*t, "cancelled" | "canceled") || ["отменен", "отменён"].iter().any(|s| t.starts_with(s));
    if marked && tokens.iter().any(cancel_form) {
        return Some(Intent::Cancel);
    }
    let marked_done = marked && (has(DONE_WORDS) || tokens.iter().any(done_form));
    if marked_done && tokens.last().is_some_and(|t| DONE_WORDS.contains(t) || done_form(t)) {
        return Some(Intent::Done);
    }
    if ticked_off(tokens).is_some() {
        return Some(Intent::Done);
    }
    // «сними задачу про стремянку»: taking a task off is a cancel («сними деньги» is a
    // task of its own).
    let taken_off = tokens.windows(2).any(|w| {
        matches!(w[0], "сними" | "снять" | "снимаю" | "сняла" | "снял")
            && matches!(w[1], "задачу" | "задача" | "задачи" | "задачку" | "пункт")
    });
    if fault_gone(tokens) && !has(CANCEL_WORDS) {
        return Some(Intent::Done);
    }
    if has(CANCEL_WORDS) || not_needed || taken_off {
        return Some(Intent::Cancel);
    }
    if date.is_some_and(|d| deadline_said(tokens, d)) {
        return Some(Intent::Move);
    }
    // "get the etsy fees done in 3 days", «готово к пятнице»: a done word right before a
    // date it is due by or within is when, not a report.
    let done_by = date.is_some_and(|d| {
        (0..d.start).any(|i| {
            DONE_WORDS.contains(&tokens[i])
                && (i + 1..=i + 2).contains(&d.start)
                && (DEADLINE_PREPOSITIONS.contains(&tokens[i + 1])
                    // "done in 3 days"; "done tomorrow": a day to come is never when it was
                    // done.
                    || matches!(tokens[i + 1], "in" | "within" | "tomorrow" | "tmrw" | "next" | "завтра" | "послезавтра"))
        })
    });
    // "complete the ferry check in 3 days", «закончить отчёт к пятнице»: a done word that
    // leads, with a date, orders the task done by then.
    // ("costco renewal finish in 2 weeks", "shower head complete it in 5 days": an order
    // to finish, wherever it stands — "complete" before what or when, no adjective.)
    let ordered_done = has_date
        && (matches!(
            tokens.first(),
            Some(&("complete" | "finish" | "wrap" | "close" | "закончить" | "завершить" | "доделать"))
        ) || tokens.iter().any(|t| matches!(*t, "finish" | "закончить" | "завершить" | "доделать" | "доделай"))
            || tokens.windows(2).any(|w| {
                w[0] == "complete"
                    && matches!(w[1], "it" | "this" | "that" | "by" | "in" | "within" | "before" | "until")
            }));
    // "progressive call get it done monday": getting it done, with a date, is by when.
    let get_it_done =
        has_date && tokens.windows(3).any(|w| matches!(w[0], "get" | "getting") && (w[1] == "done" || w[2] == "done"));
    // "the glasses pickup can be done saturday", "i'll be done with the sketch next week",
    // «торт будет готов в субботу»: done as it will be, with a date, is when.
    let done_to_be = has_date
        && tokens.windows(2).any(|w| {
            matches!(w[0], "be" | "будет" | "будут") && (DONE_WORDS.contains(&w[1]) || w[1].starts_with("готов"))
        });
    if done_by || ordered_done || done_to_be || get_it_done {
        return Some(Intent::Move);
    }
    // «маму с вокзала забрать в субботу»: an infinitive and a date say what is to be
    // done when — never a report, whatever word ends like a past («вокзала»).
    // («закрыть вопрос с картриджем в следующем месяце»: a done word that is itself an
    // infinitive is what is to be done, no report.)
    let infinitive = tokens.iter().any(|t| !t.is_ascii() && is_task_verb(t));
    let done_said = tokens.iter().any(|t| DONE_WORDS.contains(t) && !is_task_verb(t));
    if has_date && infinitive && !done_said && !tokens.iter().any(|t| is_done_participle(t)) {
        return Some(Intent::Move);
    }
    // "set … for tomorrow", «поставь … на пятницу», "lisbon hotel -> wed": a move only
    // with a date («поставь лампочку» alone is a task).
    let set_up = tokens.windows(2).any(|w| w[0] == "set" && w[1] == "up");
    if has(MOVE_WORDS) || (has_date && (arrow || (has(WEAK_MOVE_WORDS) && !set_up))) {
        return Some(Intent::Move);
    }
    // A deadline or a wait named ("the deadline is …", «срок по …», «подождёт до …») is
    // about when, never a report of completion: without a date it asks for one.
    // But a deadline as the topic («ответила насчёт дедлайна», "replied re the deadline")
    // is what the task was about.
    if (0..tokens.len()).any(|i| is_deadline_word(tokens[i]) && !is_topic(tokens, i)) {
        return Some(Intent::Move);
    }
    // (A word of the date is never the past: «через две недели» ends like «сдели».)
    let in_date = |i: usize| date.is_some_and(|d| (d.start..d.end).contains(&i));
    if has(DONE_WORDS)
        || (0..tokens.len()).any(|i| !in_date(i) && (is_past(tokens[i]) || is_done_participle(tokens[i])))
    {
        return Some(Intent::Done);
    }
    if marked && tokens.iter().any(done_form) {
        return Some(Intent::Done);
    }
    // "the signup form is set up", "the sensor is clean": a report of a state.
    let reported = tokens.windows(3).any(|w| matches!(w[0], "is" | "are") && w[1] == "set" && w[2] == "up")
        // ("vacuum's back": the "s" of "is".)
        || tokens.windows(2).skip(1).any(|w| matches!(w[0], "is" | "are" | "s") && STATE_WORDS.contains(&w[1]))
        // «полки в печи чистые»: a cleaning task's state, said last.
        || (tokens.len() >= 2 && tokens.last().is_some_and(|t| matches!(*t, "чистые" | "чистая" | "чистый" | "чистое")))
        // "the press release is out": sent, when "out" ends the message ("out of milk" is
        // none).
        || (tokens.len() >= 3 && tokens[tokens.len() - 2..] == ["is", "out"]);
    // «термос уже у оли», «документы уже у марты»: the thing is where the task was to
    // take it — handed over.
    // («посылка уже дома»: brought home.)
    let handed_over = tokens.windows(2).any(|w| w[0] == "уже" && matches!(w[1], "у" | "дома"));
    // "the fan works again", «самокат снова на ходу», «опять работает»: mended.
    // ("the wifi in room 3 works now": mended, said last.)
    let works_again = tokens.windows(2).any(|w| {
        matches!((w[0], w[1]), ("works" | "working" | "runs" | "running", "again") | ("снова" | "опять", "работает"))
    }) || tokens.ends_with(&["works", "now"])
        || tokens.ends_with(&["work", "now"])
        || tokens.ends_with(&["working", "now"])
        || tokens.windows(3).any(|w| matches!((w[0], w[1], w[2]), ("снова" | "опять", "на", "ходу")));
    // "the zenith is on its way to lyon", «посылка уже в пути»: sent.
    let on_its_way = tokens.windows(4).any(|w| {
        matches!(w[0], "is" | "are") && w[1] == "on" && matches!(w[2], "its" | "their" | "the") && w[3] == "way"
    }) || tokens.windows(3).any(|w| matches!((w[0], w[1], w[2]), ("уже", "в", "пути")));
    if reported
        || handed_over
        || works_again
        || on_its_way
        || state_at_the_end(tokens)
        || state_reached(tokens).is_some()
        || (!has_date && has_it_now(tokens))
        || (!has_date && where_it_is_now(tokens).is_some())
    {
        return Some(Intent::Done);
    }
    // «с книгой всё», «посудомойка всё»: done with it (but «купить всё» is a task).
    let ends_all = matches!(tokens.last(), Some(&"все" | &"всё"));
    if ends_all
        && (matches!(tokens.first(), Some(&"с" | &"со")) || (2..=4).contains(&tokens.len()) && !is_task_verb(tokens[0]))
    {
        return Some(Intent::Done);
    }
    None
}

/// Returns true when someone now has what a task was to get them: "canela has new
/// shoes", "tyoma has his passport now", "kate has her tournament money", "the
/// organizers have the list of items". Said after a subject (a first "has" asks), with a
/// determiner or "new" after the verb ("misha has a cold" says no thing of a task's), and
/// with no date ("we have guests on friday" is a plan).
/// In Russian the owner comes first, the new thing last: «у ксюши новые кеды», «у двери
/// новый замок».
pub(super) fn has_it_now(tokens: &[&str]) -> bool {
    let new = |t: &str| matches!(t, "новый" | "новая" | "новое" | "новые");
    // («у гоши теперь есть amka», «у меня теперь бельгийские права»: "now" after the
    // person, before the thing.)
    let russian = tokens.first() == Some(&"у")
        && (2..tokens.len().saturating_sub(1))
            .any(|i| (new(tokens[i]) && !tokens[1..i].iter().any(|t| new(t))) || tokens[i] == "теперь");
    russian
        || tokens.windows(3).skip(1).any(|w| {
            matches!(w[0], "has" | "have")
                && (matches!(w[1], "new" | "his" | "her" | "their" | "the" | "all") || (w[1] == "a" && w[2] == "new"))
                && !matches!(w[2], "to" | "been" | "got" | "no")
        }) && !tokens.contains(&"if")
}

/// Returns the positions of a place a thing is at now, said last after "is" / "are":
/// "the coat is at the dry cleaners", "walnut lumber is in the garage", "march receipts
/// are in xero now" — the thing is where its task was to take it. The place names no
/// task (it is skipped when the task is looked for), at most two words of it.
pub(super) fn where_it_is_now(tokens: &[&str]) -> Option<std::ops::Range<usize>> {
    let n = tokens.len();
    let be = |t: &str| matches!(t, "is" | "are" | "s");
    let at = (1..n).rev().find(|i| be(tokens[*i]))?;
    let mut tail = &tokens[at + 1..];
    if tail.last() == Some(&"now") {
        tail = &tail[..tail.len() - 1];
    }
    let [preposition, place @ ..] = tail else { return None };
    let place = match place {
        [det, rest @ ..] if matches!(*det, "the" | "my" | "our" | "his" | "her" | "their") => rest,
        rest => rest,
    };
    (matches!(*preposition, "at" | "in") && (1..=2).contains(&place.len()) && place.iter().all(|t| t.is_ascii()))
        .then_some(at..n)
}

/// Returns true when a message ends with a state that says the thing is where its task
/// was to bring it, or works: "the progress report is in", "coaches are on order", "the
/// stock report is with pekka", "the card is in the mail", «палатка у меня», «паяльник у
/// коли», «ботинки мадине есть», «справка на руках», «доска в ремонте», «лампочка в
/// прихожей горит», «мастер приходил, всё работает», «масло уже едет». Said last only:
/// «у меня болит голова» is none.
pub(super) fn state_at_the_end(tokens: &[&str]) -> bool {
    let n = tokens.len();
    if n < 2 {
        return false;
    }
    let last = tokens[n - 1];
    let before = tokens[n - 2];
    let be = |t: &str| matches!(t, "is" | "are" | "s" | "re" | "was" | "were");
    let english = (last == "in" && be(before))
        || (n >= 3 && be(tokens[n - 3]) && matches!((before, last), ("on", "order") | ("in", "stock")))
        || (n >= 4 && be(tokens[n - 4]) && tokens[n - 3] == "in" && matches!(last, "mail" | "post"))
        || (n >= 3 && be(tokens[n - 3]) && before == "with" && !matches!(last, "me" | "it" | "that"));
    let russian = (before == "у" && n >= 3)
        || (last == "есть" && n >= 2 && !matches!(before, "не" | "нет"))
        || matches!((before, last), ("на", "руках") | ("в", "ремонте") | ("уже", "едет" | "едут"))
        || (matches!(last, "горит" | "работает" | "работают") && !tokens.contains(&"не"))
        // «фильтр в печке новый», «зимняя резина на хонде стоит»: the new part is in, the
        // tyres are on («сколько стоит» asks first).
        || (matches!(last, "новый" | "новая" | "новое" | "новые" | "стоит" | "стоят") && n >= 2 && !tokens.contains(&"не"))
        // «у мамы есть таблетки»: someone has the thing now.
        || (tokens.windows(3).any(|w| w[0] == "у" && w[2] == "есть") && !tokens.contains(&"не"))
        // «вещи уже в химчистке»: the thing is already where it was to go.
        || (n >= 4 && tokens[n - 3] == "уже" && matches!(before, "в" | "на"));
    english || russian
}

/// Returns the positions of the state a report ends on, after "is" / "are", when that
/// state says the work is behind it: "the feeder is up", "the timesheet is up to date",
/// "the flaky test is green now", "the plane iron is sharp now". The state is no word
/// the task must name. A state that says the work is still ahead ("the sink is broken
/// now", "the fee is due now") is none.
pub(super) fn state_reached(tokens: &[&str]) -> Option<std::ops::Range<usize>> {
    let n = tokens.len();
    let be = |t: &str| matches!(t, "is" | "are" | "s");
    // (A subject first: "is the feeder up" asks.)
    let at = (1..n).rev().find(|i| be(tokens[*i]))?;
    let tail = &tokens[at + 1..];
    let reached = match tail {
        ["up"] | ["up", "to", "date"] | ["up", "now"] | ["up", "to", "date", "now"] => true,
        // "the fan is up in the bedroom": up, and where.
        ["up", "in" | "on", _, ..] => true,
        // "the new shower head is on", "the tyres are on"; "the permit is in my wallet".
        ["on"] | ["on", "now"] => true,
        ["in", "my", _] => true,
        [state, "now"] => !NOT_DONE_STATES.contains(state) && state.is_ascii() && *state != "not",
        _ => false,
    };
    reached.then_some(at..n)
}

/// States that say the work is still to do: said with "now" they report a fault or a
/// date, never a task done ("the sink is broken now", "the rent is due now").
pub(super) const NOT_DONE_STATES: &[&str] = &[
    "broken",
    "down",
    "dead",
    "late",
    "overdue",
    "due",
    "urgent",
    "missing",
    "stuck",
    "blocked",
    "delayed",
    "pending",
    "open",
    "empty",
    "off",
    "out",
    "closed",
    "worse",
    "needed",
    "required",
    "expensive",
    "cheaper",
    "higher",
    "lower",
    "leaking",
    "dirty",
    "flat",
    "wrong",
    "gone",
    "lost",
    "sick",
    "busy",
    "full",
    "red",
    "failing",
    "cracked",
];

/// Returns the positions of a tick said in words — "check off", "tick off", "cross off",
/// «поставь галочку» — which mark a task done as "done" does.
pub(super) fn ticked_off(tokens: &[&str]) -> Option<[usize; 2]> {
    tokens
        .windows(2)
        .position(|w| {
            (matches!(w[0], "check" | "tick" | "cross") && w[1] == "off")
                || (matches!(w[0], "поставь" | "поставить" | "ставлю" | "поставила" | "поставил")
                    && matches!(w[1], "галочку" | "галку" | "отметку" | "плюсик"))
        })
        .map(|i| [i, i + 1])
}

/// Returns true when the words say the fault a task was for is gone: «кран больше не
/// течёт», "the tap no longer drips", "doesn't squeak anymore" — done, not dropped
/// ("no longer" is otherwise a cancel: "no longer needed"), and no negated activity.
pub(super) fn fault_gone(tokens: &[&str]) -> bool {
    (0..tokens.len()).any(|i| {
        // ("anymore", «больше» after the verb only with a negation before it: «течёт
        // больше» leaks more.)
        let negated = tokens[..i].iter().any(|t| matches!(*t, "не" | "not" | "t" | "doesn" | "don" | "isn" | "never"));
        FAULT_VERBS.contains(&tokens[i])
            && ((i >= 2 && matches!((tokens[i - 2], tokens[i - 1]), ("больше", "не") | ("no", "longer")))
                || (negated && tokens[i + 1..].iter().any(|t| matches!(*t, "anymore" | "больше"))))
    })
}

/// What a fault does, in the present: said with «больше не», "no longer" or "anymore",
/// the fault is gone.
pub(super) const FAULT_VERBS: &[&str] = &[
    "течёт",
    "течет",
    "капает",
    "протекает",
    "подтекает",
    "скрипит",
    "гремит",
    "шумит",
    "гудит",
    "болит",
    "чешется",
    "воняет",
    "мигает",
    "заедает",
    "барахлит",
    "leaks",
    "leak",
    "leaking",
    "drips",
    "drip",
    "dripping",
    "squeaks",
    "squeak",
    "squeaking",
    "creaks",
    "creak",
    "rattles",
    "rattle",
    "buzzes",
    "buzz",
    "hurts",
    "hurt",
    "flickers",
    "flicker",
    "smells",
    "smell",
    "stinks",
    "itches",
];

/// Words of a finished state after "is"/"are": "the sensor is clean", "the ladder is
/// back" — a report of completion.
/// ("the display case is here": arrived; "sonyas hair is cut", "the mirror is hung": a
/// past that is its base too, read as a state only after "is" / "are".)
pub(super) const STATE_WORDS: &[&str] = &["clean", "back", "over", "ready", "done", "gone", "here", "cut", "hung"];

/// Words that put a date ahead as a deadline, not behind as a report: a need, a must, a
/// future ("the hotel needs to be booked by saturday", «к пятнице будет готово», "the
/// invoice goes out tomorrow").
pub(super) const OBLIGATION_WORDS: &[&str] = &[
    "need",
    "needs",
    "must",
    "should",
    "will",
    "ll",
    "gonna",
    "goes",
    "gets",
    "надо",
    "нужно",
    "должен",
    "должна",
    "должно",
    "должны",
    "будет",
    "будут",
    // «прайс нужен к пятнице» (a «не» before it is a cancel, read first).
    "нужен",
    "нужна",
    "нужны",
    "required",
];

/// Prepositions that make the date after them a deadline: "by saturday", «до понедельника»,
/// «к среде».
pub(super) const DEADLINE_PREPOSITIONS: &[&str] = &["by", "till", "until", "before", "до", "к", "ко"];

/// Returns true when a message says its date as a deadline: with a need or a future
/// anywhere, or with a deadline's preposition before it and no past verb («помидоры
/// подвязать до субботы», "get the pump guy out by the 20th"). Such a phrase sets when,
/// and never closes — whatever done word it holds ("will be done by sunday").
pub(super) fn deadline_said(tokens: &[&str], d: DateSpan) -> bool {
    let outside: Vec<&str> =
        tokens.iter().enumerate().filter(|(i, _)| *i < d.start || *i >= d.end).map(|(_, t)| *t).collect();
    let has_to = outside.windows(2).any(|w| {
        (matches!(w[0], "has" | "have" | "going") && w[1] == "to")
            // "the gift is needed by saturday": a need, though "needed" ends like a past.
            || (matches!(w[0], "is" | "are") && w[1] == "needed")
    });
    if has_to || outside.iter().any(|t| OBLIGATION_WORDS.contains(t)) {
        return true;
    }
    let preposition = deadline_preposition_at(tokens, d);
    // ("have olya's mugs packed by sunday", "get the dentist for sonya booked this
    // week": a participle after a causative "have" or "get" is the state wanted by then.)
    let causative = matches!(tokens.first(), Some(&("have" | "get")));
    (preposition && !outside.iter().any(|t| is_past(t))) || (causative && outside.iter().skip(2).any(|t| is_past(t)))
}

/// Returns true when a deadline's preposition is the date's first word or stands before
/// it ("by the 20th", «до пятницы»).
pub(super) fn deadline_preposition_at(tokens: &[&str], d: DateSpan) -> bool {
    let before = |back: usize| d.start.checked_sub(back).map(|i| tokens[i]);
    std::iter::once(tokens.get(d.start).copied())
        .chain([before(1), before(1).filter(|t| *t == "the").and(before(2))])
        .flatten()
        .any(|t| DEADLINE_PREPOSITIONS.contains(&t))
}

/// The kind of change a message asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Close it (a done word, a report of completion).
    Done,
    /// Cancel it.
    Cancel,
    /// Move its date (a move word, a deadline named).
    Move,
}

/// Returns the kind of change the words ask for, as this parser reads them (the guard
/// holds a model's call to it: a deadline phrase never closes).
pub fn kind_asked(text: &str, today: Date) -> Option<Kind> {
    let p = Phrase::new(text);
    let tokens = p.token_texts();
    let date = phrase::find_date(&p, today);
    let arrow = text.contains("->") || text.contains('→') || text.contains("=>");
    intent_of(&tokens, date, arrow, today).map(|i| match i {
        Intent::Done => Kind::Done,
        Intent::Cancel => Kind::Cancel,
        Intent::Move => Kind::Move,
    })
}

/// Returns true when a message moves nothing though it names a deadline: a past verb,
/// no move word, and every deadline word of it is a word of some open task's title.
pub(super) fn deadline_of_a_title(tokens: &[&str], tasks: &[Candidate]) -> bool {
    // "moved the quiz deadline", «продлила срок»: a past move says it moved, not when.
    let moved = |t: &str| past_move_stem(t).is_some();
    let moves = tokens
        .iter()
        .any(|t| MOVE_WORDS.contains(t) || (WEAK_MOVE_WORDS.contains(t) && !is_deadline_word(t)) || moved(t));
    if moves || !tokens.iter().any(|t| is_past(t)) {
        return false;
    }
    let deadline: Vec<&str> = tokens.iter().copied().filter(|t| is_deadline_word(t)).collect();
    let words = matching::words(&deadline.join(" "));
    !words.is_empty() && tasks.iter().any(|task| words.iter().all(|w| task.words.iter().any(|t| matching::fits(w, t))))
}

/// The stems of the verbs that move a date, read in a past form ("moved", «перенесла»).
const MOVE_STEMS: &[&str] =
    &["mov", "postpon", "push", "reschedul", "extend", "delay", "перенес", "перенёс", "сдвин", "отлож", "продл"];

/// Returns the move stem of a past form of a verb that moves a date.
fn past_move_stem(token: &str) -> Option<&'static str> {
    if !is_past(token) {
        return None;
    }
    MOVE_STEMS.iter().copied().find(|stem| token.starts_with(stem))
}

/// Returns true when a message with no date says a move was made, and an open task is
/// that move: «тренировку с жуаном перенесла» for «Перенести тренировку с Жуаном»,
/// "rescheduled the vet" for "Reschedule the vet visit" — the task's own verb done, a
/// report.
pub(super) fn moved_is_the_tasks_verb(tokens: &[&str], tasks: &[Candidate]) -> bool {
    tokens.iter().filter_map(|t| past_move_stem(t)).any(|stem| tasks.iter().any(|task| task.first.starts_with(stem)))
}

/// Returns true when token `i` follows "about" («насчёт», «про», "re", "about the"): it
/// is what the task is about, not a command.
pub(super) fn is_topic(tokens: &[&str], i: usize) -> bool {
    let before: Vec<&str> = tokens[..i].iter().rev().take(2).copied().collect();
    let lead = match before.as_slice() {
        [article, lead, ..] if ARTICLES.contains(article) => lead,
        [lead, ..] => lead,
        [] => return false,
    };
    matches!(*lead, "насчет" | "насчёт" | "про" | "о" | "об" | "about" | "re" | "regarding")
}

/// Returns true for a word that names a deadline or a wait: «срок», «дедлайн»,
/// «подождёт», "deadline", "wait" (a phrase with one never closes a task).
pub(super) fn is_deadline_word(token: &str) -> bool {
    token.starts_with("срок")
        || token.starts_with("дедлайн")
        || token.starts_with("подожд")
        || matches!(token, "deadline" | "deadlines" | "wait")
}

/// Returns true when the message's only cancel words are past forms («отменила»,
/// "cancelled"), or a word of done is said beside them ("cancel the gym membership
/// done", "close task Cancel the sunrise flight"), and every open task the rest of the
/// words name starts with that verb («Отменить подписку на …», "Cancel the old plan"):
/// the person did the task.
pub(super) fn cancel_is_the_tasks_verb(tokens: &[&str], tasks: &[Candidate]) -> bool {
    let cancels: Vec<&str> = tokens.iter().copied().filter(|t| CANCEL_WORDS.contains(t)).collect();
    // (A past or a participle: «отменила», «подписка отменена».)
    let done_said = tokens.iter().any(|t| DONE_WORDS.contains(t) && !CANCEL_WORDS.contains(t));
    if cancels.is_empty() || !(done_said || cancels.iter().all(|t| is_past(t) || is_done_participle(t))) {
        return false;
    }
    let rest: Vec<String> = tokens
        .iter()
        .filter(|t| !cancels.contains(t) && !DONE_WORDS.contains(t) && !matches!(**t, "task" | "задачу"))
        .map(|t| t.to_string())
        .collect();
    let verb = matching::words(cancels[0]);
    let Some(verb) = verb.first() else { return false };
    match matching::resolve(&matching::words(&rest.join(" ")), tasks) {
        Resolution::One(i) => {
            tasks[i].words.first().is_some_and(|t| matching::fit_of(verb, t) == Some(matching::Strength::Strong))
        }
        _ => false,
    }
}

/// Returns true when a cancel word of the message is a word of an open task's title
/// that another word of the message fits too: "spotify cancel" for "Cancel the Spotify
/// family plan".
pub(super) fn cancel_is_a_titles_word(tokens: &[&str], tasks: &[Candidate]) -> bool {
    let cancels: Vec<matching::Word> =
        tokens.iter().filter(|t| CANCEL_WORDS.contains(t)).flat_map(|t| matching::words(t)).collect();
    let rest =
        matching::words(&tokens.iter().filter(|t| !CANCEL_WORDS.contains(t)).copied().collect::<Vec<_>>().join(" "));
    tasks.iter().any(|task| {
        let has = |m: &matching::Word| task.words.iter().any(|w| matching::fits(m, w));
        cancels.iter().any(|c| task.words.iter().any(|w| matching::fit_of(c, w) == Some(matching::Strength::Strong)))
            && rest.iter().any(has)
    })
}

/// Returns the positions of the cancel words and their negations when every cancel word
/// of the message is itself negated («не удаляй», "don't delete"); empty otherwise.
pub(super) fn negated_cancel_words(tokens: &[&str]) -> Vec<usize> {
    // «нетфликс не отменяю, убери задачу»: a cancel word of its own after the negated
    // one still stands — only when every cancel word is negated is the cancel.
    let negation = |i: usize| -> Option<Vec<usize>> {
        let before = |k: usize| i.checked_sub(k).map(|j| tokens[j]);
        if matches!(before(1), Some("не" | "not" | "never" | "dont")) {
            Some(vec![i - 1, i])
        } else if before(1) == Some("t") && matches!(before(2), Some("don" | "won" | "didn")) {
            Some(vec![i - 2, i - 1, i])
        } else {
            None
        }
    };
    let cancels: Vec<Option<Vec<usize>>> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| CANCEL_WORDS.contains(t) || t.starts_with("удаля") || t.starts_with("отменя"))
        .map(|(i, _)| negation(i))
        .collect();
    if cancels.is_empty() || cancels.iter().any(Option::is_none) {
        return Vec::new();
    }
    cancels.into_iter().flatten().flatten().collect()
}

/// Words after «не» that make "not needed" (a cancel), not a negation.
pub(super) const NOT_NEEDED_AFTER_NE: &[&str] =
    &["надо", "нужно", "нужна", "нужен", "нужны", "актуально", "актуальна", "актуален"];

/// English negations, as the normalizer leaves them (`haven't` → `haven t`).
pub(super) const EN_NEGATIONS: &[&str] = &[
    "not", "never", "haven", "hasn", "hadn", "didn", "don", "doesn", "wasn", "weren", "isn", "aren", "won", "couldn",
    "wouldn", "shouldn", "cannot", "havent", "hasnt", "didnt", "dont", "doesnt", "wasnt", "isnt", "arent", "cant",
    "wont",
];

/// Returns the positions of the activities a message says it will not do: the word
/// after a negation, past a future's helper — «на прогулку не поеду» (поеду), "won't
/// return the tent" (return), «не буду менять роутер» (менять), "not returning the drill
/// bits" (returning). Beside a cancel word of its own these are what is not done, verbs
/// of the task at most — never things the task must also name.
pub(super) fn negated_activities(tokens: &[&str]) -> Vec<usize> {
    let helper = |t: &str| matches!(t, "буду" | "будем" | "будет" | "стану" | "be" | "gonna" | "going" | "to" | "go");
    let mut found = Vec::new();
    for i in 0..tokens.len() {
        let negation = match tokens[i] {
            "не" => !NOT_NEEDED_AFTER_NE.contains(&tokens.get(i + 1).copied().unwrap_or("")),
            "t" => i > 0 && matches!(tokens[i - 1], "won" | "don" | "didn"),
            t => matches!(t, "not" | "never" | "wont" | "dont" | "didnt"),
        };
        if !negation {
            continue;
        }
        let mut j = i + 1;
        while j < tokens.len() && helper(tokens[j]) {
            j += 1;
        }
        if j < tokens.len() && !CANCEL_WORDS.contains(&tokens[j]) {
            found.push(j);
        }
    }
    found
}

/// Returns true when the message says something was not done: «не» before a word
/// other than "needed", «нет», "not", "haven't", "never" (but "never mind", "not
/// needed", "no longer" are cancels).
pub(super) fn is_negated(tokens: &[&str]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        let next = tokens.get(i + 1).copied().unwrap_or("");
        match *t {
            "не" => !NOT_NEEDED_AFTER_NE.contains(&next),
            "нет" | "ни" => true,
            "never" => next != "mind",
            "not" => !matches!(next, "needed" | "necessary" | "relevant" | "required"),
            t if EN_NEGATIONS.contains(&t) => {
                // `don't need`, `don't forget` are not negations of a done task.
                !(t == "don" && matches!(tokens.get(i + 2).copied(), Some("need" | "forget" | "bother")))
            }
            _ => false,
        }
    })
}
