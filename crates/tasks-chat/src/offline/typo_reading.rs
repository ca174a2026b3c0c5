//! Reads mistyped command, date and number words as meant (one Damerau edit).

use super::*;

/// Reads mistyped lexicon words of `p` as meant (see [`crate::typos`]); the words of
/// open tasks' titles and of projects stay as written.
pub(super) fn read_typos(p: &mut Phrase, s: &Situation<'_>) -> Vec<Correction> {
    let mut known: BTreeSet<String> = BTreeSet::new();
    for title in s.tasks.iter().map(|t| t.title.as_str()).chain(s.projects.iter().map(|p| p.name.as_str())) {
        known.extend(tasks_text::normalize(title).split(' ').map(str::to_string));
    }
    let tokens: Vec<String> = p.token_texts().iter().map(|t| t.to_string()).collect();
    let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    // A date phrase that reads already stays as written («в следующем месяце» is not a
    // typo of «следующей»).
    let date = phrase::find_date(p, s.today);
    let last = refs.len().saturating_sub(1);
    let allowed = |i: usize, meant: &str| {
        let word = refs[i];
        // A word that reads as a verb form already is one («записала», «напиши»), not a
        // typo of another verb — unless it is one edit from a command («удпли» ends like
        // a past verb but is «удали» mistyped).
        let command_word = CANCEL_WORDS.contains(&meant)
            || MOVE_WORDS.contains(&meant)
            || DONE_WORDS.contains(&meant)
            // «отпарвил» is «отправил», two letters swapped; «записала» is no «написала»
            // (a letter replaced: a real verb of its own).
            || (REPORT_VERBS.contains(&meant) && crate::typos::swapped(word, meant));
        // After a word that starts a date («до конца недли», "by next weke") a date word
        // is read, even where the typo ends like a past («недли» like «сделали»).
        let date_context = i > 0
            && matches!(
                refs[i - 1],
                "конца"
                    | "конец"
                    | "до"
                    | "на"
                    | "к"
                    | "через"
                    | "следующей"
                    | "следующую"
                    | "этой"
                    | "эту"
                    | "next"
                    | "this"
                    | "by"
            )
            && date_meaning(meant).is_some();
        // Two neighbours swapped in a date word («сегодян») is a slip of the fingers,
        // whatever the typo happens to end like (a participle's «-ян»).
        let swapped_date = DATE_WORDS.contains(&meant) && crate::typos::swapped(word, meant);
        let verb_form = !command_word
            && !date_context
            && !swapped_date
            && (is_past(word) || is_done_participle(word) || is_task_verb(word));
        let in_date = date.is_some_and(|d| (d.start..d.end).contains(&i));
        let command = lexicon().commands.contains(meant);
        // «задачу» is «задача» inflected, not mistyped: a Russian command word that differs
        // only by a vowel ending is a form of it.
        let inflected = {
            let (w, m): (Vec<char>, Vec<char>) = (word.chars().collect(), meant.chars().collect());
            let common = w.iter().zip(&m).take_while(|(a, b)| a == b).count();
            common + 1 >= w.len().max(m.len())
                && w.last().is_some_and(|c| "аеиоуыэюяйь".contains(*c))
                && m.last().is_some_and(|c| "аеиоуыэюяйь".contains(*c))
        };
        // A command word is read again only where commands stand — first or last
        // ("remote" in "bought the remote batteries" is no "remove") — and never for an
        // inflection of it or a word the lexicon knows for a thing ("fixed the tv remote").
        let command_read = (i == 0 || i == last) && !inflected && !tasks_text::lexicon::is_surface_word(word);
        !verb_form && !in_date && (!command || command_read)
    };
    let (read, mut said) = crate::typos::correct(&refs, &lexicon().all, &known, &allowed, &meaning);
    for (token, text) in p.tokens.iter_mut().zip(read) {
        token.text = text;
    }
    // Short words, read only where their place says what they are. Before a date unit
    // ("nexy week", "end of teh month") a word one edit from "next", "this" or "the";
    // last in the message ("flashlight for the star party gto", "club fee pais") a word
    // one edit from a report verb or a done word, when no other is as close.
    let n = p.tokens.len();
    for i in 0..n {
        // The place first (cheap): before a date unit, or last.
        let before_a_unit = p
            .tokens
            .get(i + 1)
            .is_some_and(|t| SHORT_DATE_UNITS.contains(&t.text.as_str()) || date_meaning(&t.text).is_some());
        let last = i + 1 == n && i > 0;
        let after_a_date_lead = i > 0 && DATE_LEADS.contains(&p.tokens[i - 1].text.as_str());
        if !before_a_unit && !last && !after_a_date_lead {
            continue;
        }
        let word = p.tokens[i].text.clone();
        if word.chars().count() < 3
            || known.contains(&word)
            || lexicon().all.contains(word.as_str())
            || !tasks_text::concepts_of(&word).is_empty()
            || tasks_text::stems::is_stop_word(&word)
            || matches!(word.as_str(), "one" | "ones")
        {
            continue;
        }
        // "next wek": after a word that starts a date, a date unit short of a letter.
        if after_a_date_lead && !before_a_unit {
            let units: Vec<&str> = SHORT_DATE_UNITS
                .iter()
                .copied()
                .filter(|u| u.chars().count() == word.chars().count() + 1 && crate::typos::one_edit(&word, u))
                .collect();
            if let [u] = units.as_slice() {
                p.tokens[i].text = u.to_string();
                said.push(Correction { wrote: word, meant: u.to_string() });
            }
            continue;
        }
        let meant: Vec<&str> = if before_a_unit {
            ["next", "this", "the"].into_iter().filter(|m| crate::typos::one_edit(&word, m)).collect()
        } else {
            REPORT_VERBS
                .iter()
                .chain(DONE_WORDS)
                .chain(IRREGULAR_PAST)
                .copied()
                .filter(|m| {
                    // Two letters swapped or one left out: a short word one letter
                    // replaced or added is too often a word of its own ("thanks a lot",
                    // "bought bread").
                    let dropped = m.chars().count() == word.chars().count() + 1 && crate::typos::one_edit(&word, m);
                    m.is_ascii() == word.is_ascii()
                        && m.chars().count() >= 3
                        && (crate::typos::swapped(&word, m) || dropped)
                })
                .collect::<BTreeSet<&str>>()
                .into_iter()
                .collect()
        };
        if let [m] = meant.as_slice() {
            p.tokens[i].text = m.to_string();
            said.push(Correction { wrote: word, meant: m.to_string() });
        }
    }
    // "mixd episode 42", "backd up the files": an English past that lost its "e", read
    // as the past of an open task's verb ("Mix episode 42").
    let title_verbs: BTreeSet<&str> = s.tasks.iter().map(|t| t.first.as_str()).filter(|f| f.is_ascii()).collect();
    // ("prepard": the past of "Prepare" short of its "e".)
    for token in &mut p.tokens {
        let Some(verb) = token.text.strip_suffix('d') else { continue };
        if verb.len() < 3 || verb.ends_with('e') || known.contains(&token.text) {
            continue;
        }
        if !title_verbs.contains(verb) && !title_verbs.contains(format!("{verb}e").as_str()) {
            continue;
        }
        let meant = format!("{verb}ed");
        said.push(Correction { wrote: std::mem::replace(&mut token.text, meant.clone()), meant });
    }
    // «вызвл мастера» for «Вызвать мастера…»: a Russian past that lost the vowel before
    // its «-л», read as the past of an open task's verb.
    let title_stems: BTreeSet<String> = s
        .tasks
        .iter()
        .filter_map(|t| t.first.strip_suffix("ть").filter(|st| !st.is_ascii() && st.chars().count() >= 3))
        .map(str::to_string)
        .collect();
    for token in &mut p.tokens {
        let Some(before_l) = token.text.strip_suffix('л') else { continue };
        if before_l.is_ascii() || known.contains(&token.text) || before_l.ends_with(|c: char| "аеёиоуыэюя".contains(c))
        {
            continue;
        }
        let Some(stem) = title_stems.iter().find(|st| {
            let mut letters = st.chars();
            letters.next_back().is_some_and(|v| "аеиоуыя".contains(v)) && letters.as_str() == before_l
        }) else {
            continue;
        };
        let meant = format!("{stem}л");
        said.push(Correction { wrote: std::mem::replace(&mut token.text, meant.clone()), meant });
    }
    // «заказла трости», "boked the haircut": a past of an open task's verb with a letter
    // left out, added, or two swapped — never one replaced ("cooked" is no "booked").
    let pasts = pasts_of_title_verbs(s.tasks);
    for token in &mut p.tokens {
        let word = token.text.clone();
        if word.chars().count() < crate::typos::MIN_LETTERS
            || known.contains(&word)
            || pasts.contains_key(&word)
            || lexicon().all.contains(word.as_str())
            // («верну» is one letter from «вернул» and a future of its own: I will.)
            || word.ends_with(['у', 'ю'])
            || !infinitives_of_future(&word).is_empty()
        {
            continue;
        }
        // (A word the lexicon knows as something else is that word.)
        let concepts = tasks_text::concepts_of(&word);
        let slip = |form: &&String| {
            (crate::typos::swapped(&word, form)
                || (word.chars().count().abs_diff(form.chars().count()) == 1 && crate::typos::one_edit(&word, form)))
                && (concepts.is_empty() || tasks_text::concepts_of(form) == concepts)
        };
        // («заказла» is a slip of «заказала» and of «заказал»: one verb either way.)
        let meant: Vec<(&String, &String)> = pasts.iter().filter(|(form, _)| slip(form)).collect();
        let one_verb = meant.first().is_some_and(|(_, verb)| meant.iter().all(|(_, v)| v == verb));
        if let (true, Some((m, _))) = (one_verb, meant.first()) {
            let meant = m.to_string();
            said.push(Correction { wrote: std::mem::replace(&mut token.text, meant.clone()), meant });
        }
    }
    said
}

/// Returns the pasts of the open tasks' verbs, each with its verb: «заказал»,
/// «заказала», «заказали» of «Заказать», "booked" of "Book", "prepared" of "Prepare".
fn pasts_of_title_verbs(tasks: &[Candidate]) -> std::collections::BTreeMap<String, String> {
    let mut pasts = std::collections::BTreeMap::new();
    for verb in tasks.iter().map(|t| t.first.as_str()).filter(|v| is_task_verb(v)) {
        if verb.is_ascii() {
            let past = match verb.strip_suffix('e') {
                Some(_) => format!("{verb}d"),
                None => match verb.strip_suffix('y') {
                    Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{stem}ied"),
                    _ => format!("{verb}ed"),
                },
            };
            pasts.insert(past, verb.to_string());
        } else if let Some(stem) = verb.strip_suffix("ться") {
            pasts.extend(["лся", "лась", "лись"].iter().map(|e| (format!("{stem}{e}"), verb.to_string())));
        } else if let Some(stem) = verb.strip_suffix("ть") {
            pasts.extend(["л", "ла", "ли"].iter().map(|e| (format!("{stem}{e}"), verb.to_string())));
        }
    }
    pasts
}

/// Date units a short mistyped "next", "this" or "the" stands before.
const SHORT_DATE_UNITS: &[&str] = &["week", "month", "weekend", "year"];

/// Words a date unit follows: a short word after one that is a unit short of a letter
/// ("next wek") is read as the unit.
const DATE_LEADS: &[&str] = &["next", "this", "following"];

/// What a word means for reading a typo close to several: a date word's meaning
/// ([`date_meaning`]), or a Russian past's verb — «оплатилп» is one letter from
/// «оплатил» and from «оплатила», both one report.
fn meaning(word: &str) -> Option<u32> {
    date_meaning(word).or_else(|| {
        let stem = ["лась", "лись", "лся", "ла", "ли", "ло", "л"].iter().find_map(|e| word.strip_suffix(e))?;
        if word.is_ascii() || stem.chars().count() < 3 || !is_past(word) {
            return None;
        }
        // A stable number for the stem (FNV-1a), above the date meanings' range.
        let hash = stem.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
        Some(hash | 0x8000_0000)
    })
}

/// What a date word names, whatever its ending («пятницу», «пятница», «пятнице» are one
/// Friday; «неделю», «недели» one week): a typo close to several forms is still read.
pub(super) fn date_meaning(word: &str) -> Option<u32> {
    if let Some((day, _)) = tasks_text::calendar::weekday_word(word) {
        return Some(100 + day.to_monday_zero_offset() as u32);
    }
    if let Some(m) = tasks_text::calendar::month_word(word) {
        return Some(200 + u32::from(m.0.unsigned_abs()));
    }
    // The forms of one date word: «неделю», «недели», «неделе», «неделя» are one week.
    ["недел", "месяц", "следующ", "выходн", "конц", "конец"]
        .iter()
        .position(|stem| word.starts_with(stem))
        .map(|i| 300 + i as u32)
}

/// Every word the parser acts on: its command words, date words and list positions.
pub(super) fn lexicon() -> &'static Lexicon {
    static LEXICON: std::sync::OnceLock<Lexicon> = std::sync::OnceLock::new();
    LEXICON.get_or_init(|| {
        let mut commands: BTreeSet<&'static str> = BTreeSet::new();
        for list in [DONE_WORDS, CANCEL_WORDS, MOVE_WORDS, WEAK_MOVE_WORDS, REPORT_VERBS] {
            commands.extend(list.iter().copied());
        }
        commands.extend(CREATE_LEADS.iter().filter(|l| l.len() == 1).map(|l| l[0]));
        // "remidn me to …": the first word of a lead of several, when long enough to read.
        commands.extend(
            CREATE_LEADS.iter().filter(|l| l.len() > 1 && l[0].len() >= crate::typos::MIN_LETTERS).map(|l| l[0]),
        );
        for twin in REAL_WORD_TWINS {
            commands.remove(twin);
        }
        let mut all = commands.clone();
        all.extend(DATE_WORDS.iter().copied());
        // "boguht" is "bought": the pasts a report is told with.
        all.extend(IRREGULAR_PAST.iter().copied().filter(|w| w.len() >= matching::TYPO_MIN_CHARS));
        all.extend(tasks_text::calendar::all_words());
        all.extend(phrase::ORDINAL_WORDS.iter().copied());
        Lexicon { all, commands }
    })
}

/// The words typos are read toward: all of them, and the command words among them
/// (read again only where commands stand).
pub(super) struct Lexicon {
    all: BTreeSet<&'static str>,
    commands: BTreeSet<&'static str>,
}

/// Command words one edit from a common word of their own that is no command: «запиши»
/// / «напиши» ("write a poem" is no task lead). Never read as typos.
pub(super) const REAL_WORD_TWINS: &[&str] = &["запиши"];

/// Date words besides weekdays and months, for reading their typos.
pub(super) const DATE_WORDS: &[&str] = &[
    "завтра",
    "послезавтра",
    "сегодня",
    "неделю",
    "недели",
    "неделе",
    "неделя",
    "месяц",
    "месяца",
    "месяце",
    "выходные",
    "выходных",
    "следующую",
    "следующей",
    "следующий",
    "следующая",
    "следующем",
    "следующего",
    "через",
    "конец",
    "конца",
    "tomorrow",
    "today",
    "tonight",
    "weekend",
    "month",
    "week",
    "next",
    "days",
    "weeks",
    "months",
    "дней",
    "дня",
];
