//! Which task a message names: the objects first, then the verb, with the guards against thin or cross-language evidence.

use super::*;

/// Returns true when every one of the words fits a word of the task's title.
pub(super) fn explains_all(words: &[matching::Word], task: &Candidate) -> bool {
    words.iter().all(|m| matching::fit_to_title(m, task).is_some())
}

/// Returns true when the message's verb starts no open task and its object words do not
/// all fit this one: "renewed the library card" for "Return the library books", "took
/// the kid to the doctor" for «Записаться к терапевту» — asked, never acted on.
pub(super) fn verb_unexplained(objects: &[String], verbs: &[String], tasks: &[Candidate], i: usize) -> bool {
    // A "verb" that is a word of this task past its verb is one of its objects («кости»
    // reads like an infinitive, and is Костя in «Забрать у Кости дрель»).
    let rest = tasks[i].after_verb();
    let verb_words: Vec<matching::Word> =
        matching::words(&verbs.join(" ")).into_iter().filter(|v| !rest.iter().any(|t| matching::fits(v, t))).collect();
    let object_words = matching::words(&objects.join(" "));
    let fits_verb = |t: &Candidate| verb_words.iter().any(|v| starts_with_verb(t, v));
    !verb_words.is_empty()
        && (!explains_all(&object_words, &tasks[i]) || object_words.len() == 1)
        && !tasks.iter().any(fits_verb)
}

/// Returns true when a task's title starts with the message's verb ([`same_verb`] of its
/// first word).
pub(super) fn starts_with_verb(task: &Candidate, v: &matching::Word) -> bool {
    task.words.first().is_some_and(|f| same_verb(v, f))
}

/// Returns true when a message's verb is a title's verb: they fit as words do, or they
/// share a root once a prefix and a past or infinitive ending are taken off («сдала» /
/// «Сдать», «дозвонилась» / «Позвонить»), or an English past is the title's verb
/// ("bought" / "Buy", by the lexicon's concepts).
pub(super) fn same_verb(v: &matching::Word, title_verb: &matching::Word) -> bool {
    if matching::fits(v, title_verb) {
        return true;
    }
    if let Some(base) = IRREGULAR_BASE.iter().find(|(past, _)| *past == v.text).map(|(_, base)| *base) {
        return matching::words(base).first().is_some_and(|b| matching::fits(b, title_verb));
    }
    let (a, b) = (verb_root(&v.text), verb_root(&title_verb.text));
    if a.chars().count() >= 3 && a == b {
        return true;
    }
    // A first letter read as a prefix where it was none: «стричь» (с|три) is «Подстричь»
    // (под|стри); a past's last consonant the infinitive has not: «подстригся» (стриг) is
    // «Постричься» (стри).
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if short.chars().count() >= 3
        && long.chars().count() == short.chars().count() + 1
        && (long.ends_with(short.as_str()) || long.starts_with(short.as_str()))
    {
        return true;
    }
    // An imperfective and its perfective differ in the vowel before the ending: «менять»
    // / «Заменить» (меня / мени), «проверять» / «Проверить».
    let vowel = |c: Option<char>| c.is_some_and(|c| "аяеиы".contains(c));
    let (ca, cb) = (a.chars().count(), b.chars().count());
    if ca >= 4 && ca == cb && vowel(a.chars().last()) && vowel(b.chars().last()) {
        let cut = |w: &str| w.chars().take(ca - 1).collect::<String>();
        if cut(&a) == cut(&b) {
            return true;
        }
    }
    // A past mistyped: «закзала» is «Заказать», "udpated" is "Update", once the past
    // ending gives way to the infinitive's and one letter is off.
    infinitives_of_past(&v.text).iter().any(|inf| {
        inf.chars().count() >= matching::TYPO_MIN_CHARS
            && inf.chars().next() == title_verb.text.chars().next()
            && crate::typos::one_edit(inf, &title_verb.text)
    })
}

/// Returns true when the one object word fits the task only as another word of the same
/// language with the same meaning («врачу» for «терапевту»): a general word for a
/// specific task, asked rather than acted on (a translation, "doctor" for «терапевту»,
/// is no such doubt).
pub(super) fn synonym_only(objects: &[String], verbs: &[String], task: &Candidate) -> bool {
    let object_words = matching::words(&objects.join(" "));
    let [m] = object_words.as_slice() else { return false };
    // A word one letter off the title's ("упаковала кинги"), or another word for it
    // («подкормила томаты» / «Подкормить помидоры»), is the title's word when the verb is
    // the title's verb too: two pieces of evidence agree.
    let verb_agrees = matching::words(&verbs.join(" ")).iter().any(|v| starts_with_verb(task, v));
    let mut fits = task.words.iter().filter(|t| matching::fits(m, t)).peekable();
    fits.peek().is_some()
        && fits.all(|t| {
            m.script == t.script
                && !m.stems.iter().any(|st| t.stems.contains(st))
                && !t.name
                && m.text != t.text
                && !verb_agrees
        })
}

/// Returns true when the evidence for a task is thin: one word of the message fits it
/// (an object, or a verb that is the title's), and that word covers less than half of
/// the title's words after its verb.
pub(super) fn thin(objects: &[String], verbs: &[String], task: &Candidate) -> bool {
    let message = matching::words(&objects.join(" "));
    // The title's own verb counts as a second word ("hotel booked" for "Book hotel in
    // Lisbon for the offsite") when the title explains every object word ("watched the
    // webinar on anesthesia" is not "Watch the webinar on dental X-rays").
    let verb_fits =
        explains_all(&message, task) && matching::words(&verbs.join(" ")).iter().any(|v| starts_with_verb(task, v));
    let fitting =
        message.iter().filter(|m| task.words.iter().any(|t| matching::fits(m, t))).count() + usize::from(verb_fits);
    // (After a light verb the participle that ends the title is its verb, no object:
    // "Get the fire extinguisher inspected" is about the fire extinguisher.)
    let rest = match task.after_verb() {
        [objects @ .., last] if LIGHT_VERBS.contains(&task.first.as_str()) && is_past(&last.text) => objects,
        all => all,
    };
    let covered = rest.iter().filter(|t| message.iter().any(|m| matching::fits(m, t))).count();
    fitting <= 1 && rest.len() >= 3 && covered * 2 < rest.len()
}

/// Returns true when the message points at a task in so many words: «задачу про лифт»,
/// "the task about the pump", "the webcam task". The words after are the task's own, so
/// one of them fitting one task is enough.
pub(super) fn names_the_task(tokens: &[&str]) -> bool {
    let task = |t: &str| matches!(t, "задачу" | "задача" | "задачи" | "задачку" | "task");
    tokens.windows(2).any(|w| {
        (task(w[0]) && matches!(w[1], "про" | "насчет" | "насчёт" | "по" | "about" | "for" | "re"))
            || (w[1] == "task" && !ARTICLES.contains(&w[0]) && w[0] != "this")
            // "close the washing machine one"
            || (w[1] == "one" && !ARTICLES.contains(&w[0]) && w[0] != "this" && tokens.contains(&"the"))
    })
}

/// Returns true when one object word names the task by itself: a word of six letters or
/// more that is a word of this title and of no other («жеребьёвку перенеси
/// на сегодня», "not doing the goggles, delete"). Enough to move a task — a move loses
/// nothing and is undone by another — or to cancel one on an explicit cancel word, though
/// not to close one on a report.
pub(super) fn names_alone(objects: &[String], tasks: &[Candidate], i: usize) -> bool {
    let message = matching::words(&objects.join(" "));
    // The word itself: its stem in one script, its sound in the other («вебинару» for
    // "webinar").
    let stem_fits = |m: &matching::Word, t: &Candidate| t.words.iter().any(|w| matching::literally(m, w));
    message.iter().any(|m| {
        m.text.chars().count() >= NAMES_ALONE_MIN_CHARS
            && stem_fits(m, &tasks[i])
            // (Another task with only a word of the same meaning does not count: the
            // word said is this title's, «собрание» the parents' meeting, not «планёрку».)
            && tasks.iter().enumerate().all(|(j, t)| j == i || !t.words.iter().any(|w| matching::literally(m, w)))
    })
}

/// Shortest word that names a task alone for a move ([`names_alone`]).
pub(super) const NAMES_ALONE_MIN_CHARS: usize = 6;

/// Returns true when a title without a verb is named only by what follows its first
/// preposition, and the message's verb is none of its words: "picked up davit from
/// school" is no "Parent-teacher meeting at Davit's school" — the meeting, what the
/// title is, was not said, and picking up is something else done at the same school.
/// (A verbless title named by its head is named: «купила хлеб» for «Хлеб».)
pub(super) fn head_unsaid(object_words: &[matching::Word], verb_words: &[matching::Word], task: &Candidate) -> bool {
    if is_task_verb(&task.first) || verb_words.is_empty() || verb_words.iter().any(|v| v.concepts.is_empty()) {
        return false;
    }
    // (After a heading and a colon the title starts again: «Идея для блога: рецепт
    // хачапури» is the recipe.)
    let normalized = tasks_text::normalize(task.title.rsplit(':').next().unwrap_or(&task.title));
    let tokens: Vec<&str> = normalized.split(' ').collect();
    let Some(at) = tokens.iter().position(|t| TITLE_PREPOSITIONS.contains(t)) else { return false };
    let head = matching::words(&tokens[..at].join(" "));
    let tail = matching::words(&tokens[at..].join(" "));
    let fits_any = |m: &matching::Word, ws: &[matching::Word]| ws.iter().any(|t| matching::fits(m, t));
    !head.is_empty()
        && object_words.iter().any(|m| fits_any(m, &tail))
        && !object_words.iter().any(|m| fits_any(m, &head))
        && !verb_words.iter().any(|v| task.words.iter().any(|t| matching::fits(v, t) || same_verb(v, t)))
}

/// Returns true when a report's verb is another act than the title's, one of them known
/// to the lexicon, and the thing the title's verb acts on is not said: «отвела стёпу в садик» is
/// no «Сшить костюм Стёпе на утренник в садик» — the person and the place said, the
/// costume and the sewing not. The thing is the title's words after its verb and before
/// its first preposition, its names and relatives aside.
pub(super) fn act_and_thing_unsaid(
    object_words: &[matching::Word],
    verb_words: &[matching::Word],
    task: &Candidate,
) -> bool {
    let Some(title_verb) = task.words.first().filter(|_| !task.verb_left_out() && is_task_verb(&task.first)) else {
        return false;
    };
    // (One side the lexicon knows, the other told from it by its stem and root: «сшить»
    // is no «отвела».)
    let message_known = verb_words.iter().all(|v| !v.concepts.is_empty());
    if verb_words.is_empty() || (!message_known && title_verb.concepts.is_empty()) {
        return false;
    }
    if verb_words.iter().any(|v| matching::fits(v, title_verb) || same_verb(v, title_verb) || one_act(v, title_verb)) {
        return false;
    }
    let normalized = tasks_text::normalize(&task.title);
    let tokens: Vec<&str> = normalized.split(' ').skip(1).collect();
    let at = tokens.iter().position(|t| TITLE_PREPOSITIONS.contains(t)).unwrap_or(tokens.len());
    // (A name in a title is told by its capital too: "Moira".)
    let thing: Vec<matching::Word> =
        matching::words(&tokens[..at].join(" ")).into_iter().filter(|w| !w.name && !a_person(w)).collect();
    // (A verb may say the thing: "posted about the market" is «Выложить пост про рынок».)
    !thing.is_empty() && !object_words.iter().chain(verb_words).any(|m| thing.iter().any(|t| matching::fits(m, t)))
}

/// Prepositions that end the head of a title without a verb ([`head_unsaid`]).
const TITLE_PREPOSITIONS: &[&str] = &[
    "at", "in", "on", "for", "with", "from", "to", "of", "about", "в", "во", "на", "для", "у", "с", "со", "к", "ко",
    "из", "по", "о", "об", "про",
];

/// Returns true when two verbs of different concepts name one act ([`SAME_ACT`]).
fn one_act(v: &matching::Word, title_verb: &matching::Word) -> bool {
    SAME_ACT.iter().any(|act| v.has_concept_in(act) && title_verb.has_concept_in(act))
}

/// Resolves the words of a message: the objects first; when they fit several tasks,
/// the verbs tell them apart if they can; with no objects, the verbs alone. A verb
/// matches a title's first word (its verb): "paid" is not about "Fix the payment test".
/// A clear object whose task's verb contradicts the message's («позвонила маме» against
/// «Отвезти маму к врачу», while other tasks are calls) is not that task.
pub fn target(objects: &[String], verbs: &[String], tasks: &[Candidate]) -> Resolution {
    let as_words = |ws: &[String]| matching::words(&ws.join(" "));
    // «кладовку доделать до конца недели»: a verb of finishing that starts no title
    // finishes whatever the task is, and says nothing of which ("Finish the cutting
    // boards" keeps its own).
    let finishes_any = |v: &String| {
        FINISHING_VERBS.contains(&v.as_str())
            && !matching::words(v)
                .first()
                .is_some_and(|w| tasks.iter().any(|t| title_verbs(t).any(|tv| matching::fits(w, tv))))
    };
    let verbs: Vec<String> = verbs.iter().filter(|v| !finishes_any(v)).cloned().collect();
    let verbs = verbs.as_slice();
    let verb_words = as_words(verbs);
    // A verb fits a title's verb as a word does; only when it fits no title so, by its
    // root too («отвела» / «Отвести») — a root shared across prefixes is weaker evidence
    // («записала» is no «Подписать» while a task starts «Записать»).
    let verb_fits_by = |i: usize, fit: &dyn Fn(&matching::Word, &matching::Word) -> bool| {
        verb_words.iter().any(|v| title_verbs(&tasks[i]).any(|t| fit(v, t)))
    };
    let by_root = !(0..tasks.len()).any(|i| verb_fits_by(i, &matching::fits));
    // (After a Russian light verb the noun says the action, and is only ever a root's
    // match: «подмену» for «поменял».)
    let light = |i: usize| !tasks[i].first.is_ascii() && LIGHT_VERBS.contains(&tasks[i].first.as_str());
    // A title verb that is a stop word ("Get my flu shot") is compared as written: "got".
    let stop_verb_said = |i: usize| {
        tasks[i].verb_left_out()
            && verbs.iter().any(|v| {
                *v == tasks[i].first || IRREGULAR_BASE.iter().any(|(past, base)| past == v && *base == tasks[i].first)
            })
    };
    let verb_fits = |i: usize| {
        verb_fits_by(i, &matching::fits) || stop_verb_said(i) || ((by_root || light(i)) && verb_fits_by(i, &same_verb))
    };
    if objects.is_empty() {
        if verb_words.is_empty() {
            return Resolution::Nothing;
        }
        let ix: Vec<usize> =
            narrow_by_reflexive((0..tasks.len()).filter(|i| verb_fits(*i)).collect(), verbs, tasks, true);
        // "water done", "ship done": an English word that may be a verb, where no title
        // starts with it, is the noun it also is («Оплатить воду»).
        if ix.is_empty() && verbs.iter().all(|v| v.is_ascii() && !is_past(v)) {
            return target(verbs, &[], tasks);
        }
        return match ix.len() {
            0 => Resolution::Nothing,
            1 => Resolution::One(ix[0]),
            _ => Resolution::Several(ix),
        };
    }
    let objects = &spell_out_initials(objects, tasks);
    let object_words = as_words(objects);
    // A one-word object is overruled by its verb: two object words that fit one task
    // ("sent Mark the slides" for "Email Mark the slides") are evidence enough. So are
    // several that leave a word unexplained when the verb is another task's («заплатила
    // за свет на даче» is not «Почистить снег на даче» when a task starts «Заплатить»).
    // Nor is a task whose verb the lexicon knows as another act than the message's, when
    // another task's verb is the message's: «отвёз мишу в садик» is no «Оплатить Мише
    // садик», while a task starts «Отвезти».
    let verbs_differ = |i: usize| {
        let title_known = !tasks[i].verb_left_out()
            && is_task_verb(&tasks[i].first)
            && tasks[i].words.first().is_some_and(|f| !f.concepts.is_empty());
        // (Where a word read as an object is the title's verb, the verb was said: "sent
        // mikko the signed contract".)
        let verb_said = object_words.iter().any(|m| title_verbs(&tasks[i]).any(|t| matching::fits(m, t)));
        title_known && !verb_said && verb_words.iter().all(|v| !v.concepts.is_empty()) && !verb_fits_by(i, &one_act)
    };
    // A title whose verb names the message's act in other words ([`SAME_ACT`]), and
    // whose words explain every object said.
    // A sum handed over is paid: a payment said may be a title's sending or giving back
    // of a sum ([`PAID_BY_HANDING_OVER`], [`SUMS`]).
    let paid_by_handing_over = |i: usize| {
        verb_words.iter().any(|v| v.has_concept_in(&["pay"]))
            && title_verbs(&tasks[i]).any(|t| t.has_concept_in(PAID_BY_HANDING_OVER))
            && tasks[i].after_verb().iter().any(|t| t.has_concept_in(SUMS))
    };
    let same_act =
        |i: usize| (verb_fits_by(i, &one_act) || paid_by_handing_over(i)) && explains_all(&object_words, &tasks[i]);
    let verb_elsewhere = |i: usize| {
        (objects.len() == 1 || !explains_all(&object_words, &tasks[i]) || verbs_differ(i))
            && !verb_words.is_empty()
            && !verb_fits(i)
            && (0..tasks.len()).any(|j| j != i && verb_fits(j))
    };
    // A single letter the title does not have, where it has another ("vitamin C" is not
    // "Buy vitamin D").
    let letters = |words: Vec<&str>| -> Vec<char> {
        words
            .iter()
            .filter_map(|w| {
                let mut ch = w.chars();
                match (ch.next(), ch.next()) {
                    (Some(c), None) if c.is_ascii_alphabetic() && !matches!(c, 'a' | 'i') => Some(c),
                    _ => None,
                }
            })
            .collect()
    };
    let other_letter = |i: usize| {
        let ours = letters(objects.iter().map(String::as_str).collect());
        let normalized = tasks_text::normalize(&tasks[i].title);
        let theirs = letters(normalized.split(' ').collect());
        !ours.is_empty() && !theirs.is_empty() && !ours.iter().any(|c| theirs.contains(c))
    };
    // «отправила посылку лене» is no «Отправить маме посылку»: the message names someone
    // the title does not, and the title someone the message does not — the same thing
    // done for another person.
    let other_person = |i: usize| {
        let someone_else_said =
            object_words.iter().any(|m| a_person(m) && !tasks[i].words.iter().any(|t| matching::fits(m, t)));
        someone_else_said
            && tasks[i].words.iter().any(|t| a_person(t) && !object_words.iter().any(|m| matching::fits(m, t)))
    };
    // "bought the jars for the honey" fits "Deliver 10 jars of honey" by its objects and
    // «Купить банки для мёда» by its verb and an object: both are offered.
    let verb_rivals = |i: usize| -> Vec<usize> {
        if verb_words.is_empty() || verb_fits(i) {
            return Vec::new();
        }
        // A task whose verb names the message's act in other words, and whose words
        // explain all the objects, has no rival short of one: «оплатила аренду за
        // квартиру» is «Перевести аренду за квартиру», not "Pay the shop rent". (A rival
        // reaching the last test below is short of an object already.)
        let same_act_here = same_act(i);
        (0..tasks.len())
            .filter(|j| {
                *j != i
                    && verb_fits(*j)
                    && object_words.iter().any(|m| tasks[*j].words.iter().any(|w| matching::fits(m, w)))
                    // A rival in the message's own language short of an object word the
                    // task has is no rival: "expense report sent" is "Submit the expense
                    // report", not "Send the claims report". (Across languages a missing
                    // word may be one the lexicon lacks: «банки» for "jars".)
                    && (explains_all(&object_words, &tasks[*j])
                        || !explains_all(&object_words, &tasks[i])
                        || !(same_script(&object_words, &tasks[*j]) || same_act_here))
            })
            .collect()
    };
    let resolved = match matching::resolve(&object_words, tasks) {
        Resolution::Several(ix) => said_as_written(ix, &object_words, tasks),
        other => other,
    };
    let resolved = match resolved {
        // (A kind alone, where the title's verb is another act, is something else done to
        // a thing of that kind: "washed the car" is no «Продлить ОСАГО на Фит».)
        Resolution::One(i)
            if verb_elsewhere(i)
                || other_letter(i)
                || other_person(i)
                || head_unsaid(&object_words, &verb_words, &tasks[i])
                || (matching::fits_only_broadly(&object_words, &tasks[i]) && verbs_differ(i)) =>
        {
            Resolution::Nothing
        }
        Resolution::One(i) => {
            let rivals = verb_rivals(i);
            if rivals.is_empty() {
                Resolution::One(i)
            } else {
                return Resolution::Several(std::iter::once(i).chain(rivals).collect());
            }
        }
        Resolution::Several(ix) if !verb_words.is_empty() || ix.iter().any(|i| stop_verb_said(*i)) => {
            // A Russian title with no verb («Подарок Милошу на годовщину») says nothing
            // the message's verb could rule out: it stays beside the tasks the verb fits.
            // Nor does a title in the other language whose verb the message's object names:
            // "Invoice the music school" is «выставить счёт» by «счёт». (In one language
            // the verb would have been said: "paid the bill" is no invoicing. Nor where the
            // verb fits a title of the other language: the lexicon knows it across them,
            // and «оплатил счёт» is "Pay the water bill", no "Invoice …".)
            // A title whose verb names the message's act in other words, and whose words
            // explain every object said, stays too ("paid the rent": «Перевести аренду»).
            let mut narrowed: Vec<usize> = ix.iter().copied().filter(|i| verb_fits(*i) || same_act(*i)).collect();
            let verb_known_across = narrowed.iter().any(|i| !same_script(&verb_words, &tasks[*i]));
            let verbless = |i: usize| {
                let first = tasks[i].first.as_str();
                let verb_is_an_object = !verb_known_across
                    && !same_script(&object_words, &tasks[i])
                    && tasks[i].words.first().is_some_and(|f| {
                        object_words.iter().any(|m| matching::fit_of(m, f) == Some(matching::Strength::Strong))
                    });
                (!first.is_ascii() && !is_task_verb(first)) || verb_is_an_object
            };
            if !narrowed.is_empty() {
                let extra: Vec<usize> = ix.iter().copied().filter(|i| verbless(*i) && !narrowed.contains(i)).collect();
                narrowed.extend(extra);
            }
            let narrowed = narrow_by_reflexive(narrowed, verbs, tasks, false);
            // "translated the manual for baltic lines": the verb is another task's and a
            // word is none of these tasks' — something else done for the same client.
            let elsewhere = (0..tasks.len()).any(|j| !ix.contains(&j) && verb_fits(j))
                && !ix.iter().any(|i| explains_all(&object_words, &tasks[*i]));
            // "walked bim": a verb no task has, and only a name to go by — something else
            // done with that someone.
            let names_only = object_words
                .iter()
                .all(|m| ix.iter().all(|i| tasks[*i].words.iter().filter(|t| matching::fits(m, t)).all(|t| t.name)));
            // "talked to mert" for "Call Mert …" and «Согласовать с Мертом …»: a talk
            // with someone whose every task is one of talking is about one of them.
            let talked = |v: &matching::Word| v.has_concept_in(TALK_ACTS) || TALK_SAID.contains(&v.text.as_str());
            let talked_to_them = verb_words.iter().any(talked)
                && ix.iter().all(|i| tasks[*i].words.first().is_some_and(|f| f.has_concept_in(TALK_ACTS)));
            match narrowed.len() {
                0 if (elsewhere || names_only) && !talked_to_them => Resolution::Nothing,
                0 => Resolution::Several(ix),
                1 => Resolution::One(narrowed[0]),
                _ => Resolution::Several(narrowed),
            }
        }
        other => other,
    };
    // "the attic paint": nouns, the words of «Купить краску для мансарды», not the verb
    // of «Покрасить мансарду». Two object words or more, all fitting a title past its
    // verb, tell the tasks apart.
    match resolved {
        Resolution::Several(ix) if object_words.len() >= 2 => {
            let by_objects = |t: &Candidate| {
                let rest = t.after_verb();
                // (A compound by its parts too: «школа» is in "school trip".)
                object_words
                    .iter()
                    .all(|m| rest.iter().any(|w| matching::fits(m, w) || w.parts.iter().any(|p| matching::fits(m, p))))
            };
            let nouns: Vec<usize> = ix.iter().copied().filter(|i| by_objects(&tasks[*i])).collect();
            match nouns.len() {
                1 => Resolution::One(nouns[0]),
                n if n > 1 && n < ix.len() => Resolution::Several(nouns),
                _ => Resolution::Several(ix),
            }
        }
        other => other,
    }
}

/// Concepts of the acts done by talking to someone: a call, a letter, a question, a
/// reminder, an agreement.
const TALK_ACTS: &[&str] =
    &["call", "write", "email", "message", "discuss", "ask", "tell", "remind", "approve", "reply", "text"];

/// A message's words for having talked the lexicon has no concept for.
const TALK_SAID: &[&str] =
    &["договорился", "договорилась", "договорились", "спросила", "спросил", "spoke", "talked", "chatted"];

/// Narrows tasks the words fit about as well to those that have the very words said,
/// where the others have only another word of the same meaning: «вебинар» is the
/// "webinar", not the "workshop".
pub(super) fn said_as_written(ix: Vec<usize>, object_words: &[matching::Word], tasks: &[Candidate]) -> Resolution {
    let as_written = |i: usize| {
        object_words.iter().all(|m| {
            let fitting: Vec<&matching::Word> = tasks[i].words.iter().filter(|t| matching::fits(m, t)).collect();
            fitting.is_empty() || fitting.iter().any(|t| matching::literally(m, t))
        }) && object_words.iter().any(|m| tasks[i].words.iter().any(|t| matching::literally(m, t)))
    };
    let script = |i: usize| {
        tasks[i]
            .words
            .iter()
            .map(|w| w.script)
            .find(|s| matches!(s, tasks_text::stems::Script::Latin | tasks_text::stems::Script::Cyrillic))
    };
    // A title in the other language that fits by meaning only gives way to one of that
    // language with the loan word as said («вебинар»: "webinar", not "workshop"). In
    // the message's own language two words of one meaning are often true synonyms
    // («шины», «резина»), and across two languages both stay («фильтр» is «Поменять
    // фильтр» and "Replace the water filter" alike).
    let own = object_words
        .iter()
        .map(|m| m.script)
        .find(|s| matches!(s, tasks_text::stems::Script::Latin | tasks_text::stems::Script::Cyrillic));
    // (The word as said must be one of that language, or a local word kept as written:
    // «Записать Ксюшу на soccer camp» has "camp" in English, the message's own word, and
    // «летний лагерь» stays beside it; «Оплатить cuota autónomo» has the Spanish "cuota",
    // and «взнос в comunidad» gives way.)
    let in_its_own_script = |k: usize| {
        object_words.iter().any(|m| {
            tasks[k].words.iter().any(|t| {
                matching::literally(m, t)
                    && (Some(t.script) == script(k) || !tasks_text::lexicon::listed_in_english(&t.text))
            })
        })
    };
    let gives_way = |i: usize| {
        !as_written(i)
            && script(i) != own
            && ix.iter().any(|k| as_written(*k) && script(*k) == script(i) && in_its_own_script(*k))
    };
    let kept: Vec<usize> = ix.iter().copied().filter(|i| !gives_way(*i)).collect();
    // "the wifi router": of several, the one title that has every word as said, where
    // each other lacks one ("Set up the router table", "Pay Comcast internet").
    let all_as_written =
        |i: &usize| object_words.iter().all(|m| tasks[*i].words.iter().any(|t| matching::literally(m, t)));
    // (Only among titles in the message's script: a twin in the other language is a
    // twin, "kostya's birthday" fits «День рождения Кости» as well.)
    let whole: Vec<usize> = ix.iter().copied().filter(all_as_written).collect();
    // (In English only: a Russian word said in another case is no word as written —
    // «папину квартиру» and «квартира папы».)
    let one_script = own == Some(tasks_text::stems::Script::Latin) && ix.iter().all(|i| script(*i) == own);
    if object_words.len() >= 2 && whole.len() == 1 && one_script {
        return Resolution::One(whole[0]);
    }
    // «удали туфли»: where two titles or more have every word as said, a title of the
    // message's language that has only another word of the kind («кроссовки») gives way.
    // (One in the other language stays: the same thing said there is a twin.)
    let kept: Vec<usize> = if whole.len() >= 2 {
        // (A name or a kinsman is no kind: «батя» is «папа», the same person.)
        let a_name = object_words
            .iter()
            .any(|m| !m.names.is_empty() || m.specific_of.iter().any(|i| matching::BROAD_TERMS[*i].names));
        kept.into_iter().filter(|i| a_name || whole.contains(i) || script(*i) != own).collect()
    } else {
        kept
    };
    match kept.len() {
        n if n == ix.len() || n == 0 => Resolution::Several(ix),
        1 => Resolution::One(kept[0]),
        _ => Resolution::Several(kept),
    }
}

/// Returns true when the message's words and the title are written in one script.
pub(super) fn same_script(words: &[matching::Word], task: &Candidate) -> bool {
    let script = |ws: &mut dyn Iterator<Item = &matching::Word>| {
        ws.map(|w| w.script)
            .find(|s| matches!(s, tasks_text::stems::Script::Latin | tasks_text::stems::Script::Cyrillic))
    };
    script(&mut words.iter()).is_some_and(|a| script(&mut task.words.iter()) == Some(a))
}

/// English verbs that hand the meaning to a word after them: "Get the flat appraised",
/// "Have the bike fixed".
/// So do Russian ones before a noun of the action: «Сделать подмену воды» is changing
/// the water («поменял воду»).
pub(super) const LIGHT_VERBS: &[&str] = &["get", "have", "make", "сделать", "провести"];

/// The words of a title that say what is done: its first, and after a light verb the
/// rest too ("appraised" in "Get the flat appraised").
pub(super) fn title_verbs(task: &Candidate) -> impl Iterator<Item = &matching::Word> {
    // ("get" is a stop word: the title as written says whether it starts so.)
    let light = LIGHT_VERBS.contains(&task.first.as_str());
    task.words.iter().take(if light { task.words.len() } else { 1 }).chain(&task.phrasal)
}

/// Keeps, of several tasks, those whose verb is reflexive when the message's is
/// («записалась» is «Записаться», not «Записать Катю»: the reflexive says who), when
/// any is.
pub(super) fn narrow_by_reflexive(
    ix: Vec<usize>,
    verbs: &[String],
    tasks: &[Candidate],
    no_object: bool,
) -> Vec<usize> {
    let reflexive = |w: &str| w.ends_with("ся") || w.ends_with("сь");
    // "signed up" with no one signed: one's own, as «записалась» is.
    let own_signup = no_object && verbs.iter().any(|v| v == "signup");
    if ix.len() < 2 || !(own_signup || verbs.iter().any(|v| is_past(v) && reflexive(v))) {
        return ix;
    }
    let own: Vec<usize> =
        ix.iter().copied().filter(|i| tasks[*i].words.first().is_some_and(|f| reflexive(&f.text))).collect();
    if own.is_empty() { ix } else { own }
}

/// Reads a mistyped English object word as the lexicon word it is a typo of, when no
/// title fits it as written: "tomaotes" is "tomatoes", and so «Подвязать помидоры». The
/// same bounds as a typo of a title word (five letters at least, the first letter kept,
/// one edit, two past seven letters), and the lexicon words that close must all mean one
/// thing; titles in the message's own script are read by spelling already.
pub(super) fn read_by_the_lexicon(objects: Vec<String>, tasks: &[Candidate]) -> Vec<String> {
    objects
        .into_iter()
        .map(|object| {
            let Some(m) = matching::words(&object).into_iter().next().filter(|m| {
                object.is_ascii()
                    && !object.contains(' ')
                    && m.concepts.is_empty()
                    && object.chars().count() >= matching::TYPO_MIN_CHARS
                    && !tasks_text::lexicon::is_surface_word(&object)
                    && !tasks.iter().any(|t| matching::fit_to_title(m, t).is_some())
            }) else {
                return object;
            };
            let Some(first) = m.text.chars().next() else { return object };
            let allowed = if m.text.len() > matching::TYPO_ONE_EDIT_MAX_CHARS { 2 } else { 1 };
            let mut close: Vec<(usize, &str)> = tasks_text::lexicon::surface_words_starting_with(first)
                .filter(|w| w.len().abs_diff(m.text.len()) <= allowed)
                .map(|w| (matching::edit_distance(w, &m.text), w))
                .filter(|(d, _)| *d <= allowed)
                .collect();
            close.sort();
            // One meaning among the words that close ("tomatoes", Spanish "tomates").
            let meanings: BTreeSet<Vec<tasks_text::ConceptId>> =
                close.iter().map(|(_, w)| tasks_text::concepts_of(w)).collect();
            match (close.first(), meanings.len()) {
                (Some((_, word)), 1) => (*word).to_string(),
                _ => object,
            }
        })
        .collect()
}

/// Replaces a short Latin word no title has by the title words it abbreviates, when
/// the titles spell it one way only: "sams pr" is "Review Sam's pull request".
pub(super) fn spell_out_initials(objects: &[String], tasks: &[Candidate]) -> Vec<String> {
    let mut out = Vec::new();
    for o in objects {
        let n = o.chars().count();
        let short = (2..=4).contains(&n) && o.chars().all(|c| c.is_ascii_lowercase());
        let known = || tasks.iter().any(|t| t.words.iter().any(|w| w.text == *o));
        // "at", "on", "it": a word the matcher drops is no abbreviation.
        let function_word = || matching::words(o).is_empty();
        if !short || function_word() || known() {
            out.push(o.clone());
            continue;
        }
        let mut spelled: Vec<Vec<String>> = Vec::new();
        for t in tasks {
            // ("bol" is the "bill of lading" of "Find the bill of lading for load 5521": its
            // initials count the small words the matcher drops, too.)
            let written = tasks_text::normalize(&t.title);
            let as_written: Vec<&str> = written.split(' ').filter(|w| !w.is_empty()).collect();
            let words: Vec<&str> = t.words.iter().map(|w| w.text.as_str()).collect();
            // (A run as written counts only with such a small word inside it, never at
            // its edge: "tutr" is no "the uniform tax rebate".)
            let dropped = |w: &&str| !words.contains(w);
            let with_small_words = as_written
                .windows(n)
                .filter(|run| run[1..n - 1].iter().any(dropped) && !dropped(&run[0]) && !dropped(&run[n - 1]));
            for run in words.windows(n).chain(with_small_words) {
                let initials: String = run.iter().filter_map(|w| w.chars().next()).collect();
                let spelling: Vec<String> = run.iter().map(|w| w.to_string()).collect();
                if initials == *o && !spelled.contains(&spelling) {
                    spelled.push(spelling);
                }
            }
        }
        match spelled.as_slice() {
            [one] => out.extend(one.iter().cloned()),
            _ => out.push(o.clone()),
        }
    }
    out
}

/// Abbreviations people type for words titles spell out.
pub(super) const ABBREVIATIONS: &[(&str, &[&str])] = &[
    ("др", &["день", "рождения"]),
    ("днюха", &["день", "рождения"]),
    ("днюху", &["день", "рождения"]),
    ("bday", &["birthday"]),
    ("b-day", &["birthday"]),
    ("дз", &["домашнее", "задание"]),
    ("тз", &["техническое", "задание"]),
    ("пр", &["pr"]),
    ("docs", &["documentation"]),
    ("appt", &["appointment"]),
    ("appt.", &["appointment"]),
];

/// Returns a word, or the words it abbreviates.
pub(super) fn expand_abbreviation(word: &str) -> Vec<String> {
    match ABBREVIATIONS.iter().find(|(a, _)| *a == word) {
        Some((_, full)) => full.iter().map(|w| w.to_string()).collect(),
        None => vec![word.to_string()],
    }
}

/// Narrows several tasks to those whose verb a participle of the message is a form of
/// («ульи утеплены»: «Утеплить ульи на зиму», not «Обработать ульи от клеща»).
pub(super) fn narrow_by_participle(resolved: Resolution, tokens: &[&str], tasks: &[Candidate]) -> Resolution {
    let Resolution::Several(ix) = resolved else { return resolved };
    // (A done word, «сделано», is "done" whatever the task: no word of «Сделать Тёме
    // загранпаспорт».)
    let participles: Vec<matching::Word> = tokens
        .iter()
        .filter(|t| is_done_participle(t) && !DONE_WORDS.contains(t))
        .flat_map(|t| matching::words(t))
        .collect();
    if participles.is_empty() {
        return Resolution::Several(ix);
    }
    let fits = |i: &usize| participles.iter().any(|p| starts_with_verb(&tasks[*i], p));
    let narrowed: Vec<usize> = ix.iter().copied().filter(fits).collect();
    match narrowed.len() {
        0 => Resolution::Several(ix),
        1 => Resolution::One(narrowed[0]),
        _ => Resolution::Several(narrowed),
    }
}

/// Returns true when a word names a person: a first name the tables know, or a relative
/// («маме», «брату», "mom"), a broad term that stands for any name.
fn a_person(w: &matching::Word) -> bool {
    !w.names.is_empty() || w.general_of.iter().chain(&w.specific_of).any(|g| matching::BROAD_TERMS[*g].names)
}

/// Returns true when two spellings are of one name: a slip or a transliteration
/// ("netfliks" / "netflix"), one edit per three letters of the first.
fn spelled_alike(a: &str, b: &str) -> bool {
    matching::edit_distance(a, b) <= a.chars().count() / 3
}

/// Returns true when a word is a brand's name: no word of the lexicon, or one whose
/// sound is its concept's («нетфликс» is "netflix", a name written in Cyrillic).
fn a_brand(w: &matching::Word) -> bool {
    w.concepts.iter().all(|c| spelled_alike(&w.latin, &c.replace('_', "")))
}

/// Prepositions that join a thing to what it is for, of or about: «подписку на …»,
/// «счёт за …», "flights to …".
const JOINING_PREPOSITIONS: &[&str] =
    &["на", "для", "за", "про", "от", "к", "у", "в", "с", "for", "to", "from", "about", "with", "at", "of"];

/// Returns true when the message and the title say one thing joined by one preposition
/// to two different named things: «отменила подписку на нетфликс» is no «Продлить
/// подписку на Procreate». The title's must be a name (a word of the lexicon in the
/// message may be its kind: «на почте» for "on Correios"); the message's one of its
/// objects (a date is none), no word of the lexicon but a brand, fitting no word of the
/// title and no slip of the name's spelling; and the title's name must fit no word of the message.
pub(super) fn another_complement(tokens: &[&str], objects: &[String], task: &Candidate) -> bool {
    // (Most messages have no such preposition: nothing is read for them.)
    if !tokens.iter().skip(1).any(|t| JOINING_PREPOSITIONS.contains(t)) {
        return false;
    }
    let content = |w: &str| matching::words(w).into_iter().next();
    // The first content word after position `at`.
    let next_content = |ws: &[&str], at: usize| ws.iter().skip(at + 1).find_map(|w| content(w));
    let message: Vec<matching::Word> = tokens.iter().filter_map(|w| content(w)).collect();
    let in_the_message = |t: &matching::Word| message.iter().any(|m| matching::fit_of(m, t).is_some());
    // (The title's words as written, capitals kept: a name is told by its capital.)
    let title: Vec<&str> = task.title.split_whitespace().collect();
    let title_word = |w: &str| -> Option<matching::Word> {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        task.words.iter().find(|t| tasks_text::normalize(bare) == t.text).cloned()
    };
    (1..tokens.len()).any(|i| {
        let prep = tokens[i];
        if !JOINING_PREPOSITIONS.contains(&prep) {
            return false;
        }
        let (Some(head), Some(ours)) = (content(tokens[i - 1]), next_content(tokens, i)) else { return false };
        if matching::fit_to_title(&ours, task).is_some()
            || !a_brand(&ours)
            || !objects.iter().any(|o| o.split(' ').any(|w| w == ours.text))
        {
            return false;
        }
        (1..title.len()).any(|j| {
            tasks_text::normalize(title[j]) == prep
                && title_word(title[j - 1]).is_some_and(|h| matching::fits(&head, &h))
                && title.iter().skip(j + 1).find_map(|w| title_word(w)).is_some_and(|theirs| {
                    theirs.name && !in_the_message(&theirs) && !spelled_alike(&ours.latin, &theirs.latin)
                })
        })
    })
}

/// Returns true when the message and the title say one thing of two different kinds
/// the lexicon knows, each by a word that fits nothing on the other side: "renewed my
/// gym membership" is no «Продлить абонемент в ателье», «продлил абонемент в бассейн»
/// no "Renew the gym membership", «отменила подписку на нетфликс» no "Cancel Kayo
/// subscription". The kind is the word joined to the thing by a preposition («абонемент
/// в …», "subscription to …") or, in English, the word before it ("gym membership"). The
/// title's kind is a word the lexicon knows or a name; the message's an object word
/// («нетфликс» is a brand the lexicon knows by its sound).
pub(super) fn another_kind(tokens: &[&str], objects: &[String], task: &Candidate) -> bool {
    let content = |w: &str| matching::words(w).into_iter().next();
    let is_object = |w: &matching::Word| objects.iter().any(|o| o.split(' ').any(|x| x == w.text));
    // The kinds joined to each word of a text: after a joining preposition, or just
    // before it in English (not a text's first word: a title's verb).
    let kinds = |ws: &[Option<matching::Word>], raw: &[String], at: usize| -> Vec<matching::Word> {
        let mut out = Vec::new();
        if raw.get(at + 1).is_some_and(|p| JOINING_PREPOSITIONS.contains(&p.as_str()))
            && let Some(Some(k)) = ws.get(at + 2)
        {
            out.push(k.clone());
        }
        // (Not a gerund: "riding lessons" are an activity's, which the lexicon may know
        // only as its verb, "ride".)
        if at >= 2
            && ws[at].as_ref().is_some_and(|w| w.script == tasks_text::stems::Script::Latin)
            && let Some(k) = &ws[at - 1]
            && k.script == tasks_text::stems::Script::Latin
            && !raw[at - 1].ends_with("ing")
        {
            out.push(k.clone());
        }
        out
    };
    let message_raw: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    let message: Vec<Option<matching::Word>> = tokens.iter().map(|t| content(t)).collect();
    // (The title's words as written, capitals kept: a name is told by its capital.)
    let title_raw: Vec<String> = task
        .title
        .split_whitespace()
        .map(|w| tasks_text::normalize(w.trim_matches(|c: char| !c.is_alphanumeric())))
        .collect();
    let title: Vec<Option<matching::Word>> =
        title_raw.iter().map(|w| task.words.iter().find(|t| *w == t.text).cloned()).collect();
    let fits_title = |m: &matching::Word| task.words_and_parts().any(|t| matching::fits(m, t));
    let fits_message = |t: &matching::Word| message.iter().flatten().any(|m| matching::fits(m, t));
    let known = |w: &matching::Word| !w.concepts.is_empty() && w.names.is_empty() && !w.name;
    // Two kinds the lexicon knows, in one language (across two, a pair it does not link
    // is too often one thing: "hallway" / «коридор»), or a brand said where the title
    // names another.
    let other_kinds = |ours: &matching::Word, theirs: &matching::Word| {
        (known(ours) && known(theirs) && ours.script == theirs.script) || (theirs.name && a_brand(ours))
    };
    (0..message.len()).any(|i| {
        let Some(head) = &message[i] else { return false };
        let ours: Vec<matching::Word> =
            kinds(&message, &message_raw, i).into_iter().filter(|k| is_object(k) && !fits_title(k)).collect();
        if ours.is_empty() {
            return false;
        }
        (1..title.len()).any(|j| {
            title[j].as_ref().is_some_and(|h| matching::fits(head, h))
                && kinds(&title, &title_raw, j)
                    .iter()
                    .any(|theirs| !fits_message(theirs) && ours.iter().any(|o| other_kinds(o, theirs)))
        })
    })
}

/// Returns a cancel's objects and verbs without the words no open task has, where what
/// is left is at least [`REASON_LEFT_MIN_WORDS`] words that fit some title: "won't
/// return the vacuum, keeping it, remove" is "return the vacuum". A known first name
/// stays, so that the guard against another person still sees it ("cancel misha's
/// dentist" is never Sonya's). A move with a date drops in the same way the words of
/// finishing no title has ("nitrate test has to happen by the 20th", «партию малера
/// доучу к среде»), but with `keep_known` it keeps every word the lexicon knows:
/// «записать лукаса к парикмахеру в субботу» is a new task, not Lukas's dentist moved.
/// `None` when nothing is dropped or too little is left.
pub(super) fn without_the_reason(
    objects: &[String],
    verbs: &[String],
    tasks: &[Candidate],
    keep_known: bool,
) -> Option<(Vec<String>, Vec<String>)> {
    let in_a_title = |o: &&String| {
        let words = matching::words(o);
        words.is_empty()
            || words.iter().any(|m| {
                !m.names.is_empty()
                    || (keep_known && !m.concepts.is_empty())
                    || tasks.iter().any(|t| t.words.iter().any(|w| matching::fits(m, w)))
            })
    };
    let kept_objects: Vec<String> = objects.iter().filter(in_a_title).cloned().collect();
    let kept_verbs: Vec<String> = verbs.iter().filter(in_a_title).cloned().collect();
    let left = matching::words(&kept_objects.iter().chain(&kept_verbs).cloned().collect::<Vec<_>>().join(" ")).len();
    let dropped = kept_objects.len() + kept_verbs.len() < objects.len() + verbs.len();
    (dropped && left >= REASON_LEFT_MIN_WORDS).then_some((kept_objects, kept_verbs))
}

/// Fewest words a cancel or a move must keep, once the reason is dropped, to name a
/// task: one word left of a longer message is too little to act on.
pub(super) const REASON_LEFT_MIN_WORDS: usize = 2;
