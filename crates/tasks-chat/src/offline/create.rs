//! New tasks: after a lead ("add", «напомни»), after a project lead-in, or from an infinitive; and the project a message names.

use super::*;

/// Reads "add …", «напомни …», "remind me to …" as a new task.
pub(super) fn create_after_lead(p: &Phrase, s: &Situation<'_>) -> Option<Parsed> {
    let tokens = p.token_texts();
    // «в проект дети: купить пенал», "to work: file expenses": a project and a colon
    // lead a new task as "add" does.
    if let Some((key, used)) = project_at(&tokens, 0, s.projects) {
        let colon = p.tokens.get(used.saturating_sub(1)).is_some_and(|t| p.words[t.word].ends_with(':'));
        // «в проект семья купить самокат»: the word "project" says it as a colon does.
        let said_project = tokens[..used].iter().any(|t| matches!(*t, "проект" | "project"));
        // «в уроки добавь проверить контрольную»: the project, then the lead.
        if let Some(drop) = through_a_lead(&tokens, used) {
            return Some(create(p, s, drop, Some(key)));
        }
        // «в FLAT отксерить паспорт», «по работе проверить логи»: an infinitive right after
        // the project starts the task.
        let infinitive = tokens.get(used).is_some_and(|t| is_task_verb(t) && !t.is_ascii());
        if (colon || said_project || infinitive) && tokens.len() > used {
            return Some(create(p, s, (0..used).collect(), Some(key)));
        }
    }
    // "CLM add chase the surveyor", "bees project add order frames": a project's key or
    // name said whole, then the lead.
    let first = tokens.first().copied().unwrap_or_default();
    let named_first =
        s.projects.iter().find(|pr| first == pr.key.to_lowercase() || first == tasks_text::normalize(&pr.name));
    if let Some(project) = named_first {
        let used = if matches!(tokens.get(1), Some(&("project" | "проект"))) { 2 } else { 1 };
        if let Some(drop) = through_a_lead(&tokens, used) {
            return Some(create(p, s, drop, Some(project.key.clone())));
        }
    }
    let lead = CREATE_LEADS.iter().find(|lead| tokens.len() > lead.len() && tokens[..lead.len()] == lead[..])?;
    // «задача HOME-6 выполнена»: a task's key and a word of done, cancel or move say
    // what happened to that task, whatever word leads.
    let acted_on = tokens
        .iter()
        .any(|t| DONE_WORDS.contains(t) || CANCEL_WORDS.contains(t) || MOVE_WORDS.contains(t) || is_done_participle(t));
    if acted_on && !keys_named(p, s).is_empty() {
        return None;
    }
    // «задача купить лампочки на рынке выполнена»: "task" and a word of done said last
    // report a task done, named by its title.
    let reported_last = tokens.last().is_some_and(|t| DONE_WORDS.contains(t) || is_done_participle(t));
    if lead == &["задача"] && reported_last {
        return None;
    }
    let mut drop: Vec<usize> = (0..lead.len()).collect();
    // A lead then a filler (`добавь задачу`, `remind me to`); a project named right after
    // (`добавь в проект дом`, `add to work:`) is taken here too.
    let mut at = lead.len();
    let mut project = None;
    loop {
        if let Some((key, used)) = project_at(&tokens, at, s.projects) {
            project = Some(key);
            drop.extend(at..at + used);
            at += used;
            continue;
        }
        if tokens.get(at).is_some_and(|t| CREATE_FILLER.contains(t)) && tokens.len() > at + 1 {
            drop.push(at);
            at += 1;
            continue;
        }
        // "add new task: …", «добавь новую задачу: …» ("add new batteries" keeps "new").
        let new_task = matches!(tokens.get(at), Some(&("new" | "новую" | "новая")))
            && matches!(tokens.get(at + 1), Some(&("task" | "todo" | "задачу" | "задача")));
        if new_task && tokens.len() > at + 2 {
            drop.extend([at, at + 1]);
            at += 2;
            continue;
        }
        break;
    }
    Some(create(p, s, drop, project))
}

/// Returns the tokens to leave out of a new task when a create lead (and a filler after
/// it) follows the `used` tokens that named its project: «в уроки добавь …», "CLM add …".
fn through_a_lead(tokens: &[&str], used: usize) -> Option<Vec<usize>> {
    let lead = CREATE_LEADS.iter().find(|lead| tokens.get(used..used + lead.len()) == Some(&lead[..]))?;
    let end = used + lead.len();
    if tokens.len() <= end {
        return None;
    }
    let mut drop: Vec<usize> = (0..end).collect();
    if tokens.get(end).is_some_and(|t| CREATE_FILLER.contains(t)) && tokens.len() > end + 1 {
        drop.push(end);
    }
    Some(drop)
}

/// Words of a lead-in that do not name the project: «идея для блога:», "blog post idea:",
/// «в FLAT добавь:», "to the blog:", "for the gym:".
pub(super) const LEADIN_FILLER: &[&str] = &[
    "в",
    "во",
    "для",
    "по",
    "на",
    "в",
    "проект",
    "проекта",
    "идея",
    "идеи",
    "идею",
    "пост",
    "заметка",
    "задача",
    "задачу",
    "новая",
    "добавь",
    "добавить",
    "запиши",
    "to",
    "the",
    "for",
    "in",
    "into",
    "a",
    "an",
    "my",
    "idea",
    "ideas",
    "post",
    "note",
    "task",
    "new",
    "add",
    "project",
    "stuff",
    "things",
    "s",
];

/// Reads a lead-in that names a project before a colon or a dash as "add to that
/// project": «идея для блога: …», «в блог добавь: …», «KIDS: …», «для школы — …»,
/// "blog idea: …", "to the blog: …", "work: …". The project is named by its key, a word
/// of its name, or a word of its description, and must be the only one that fits; a
/// lead-in with a command word in it («срок по отчёту: пятница», "mark as done: …") is
/// not one.
///
/// `restated` says whether the message says an open task again with a date (read once
/// by the caller).
pub(super) fn create_after_project_lead(p: &Phrase, s: &Situation<'_>, restated: &dyn Fn() -> bool) -> Option<Parsed> {
    // "inbox: call the plumber tomorrow", «в инбокс: …»: the inbox is no project, and a
    // task filed there has none.
    if let Some(lead) = inbox_lead(p) {
        return Some(create(p, s, lead, None));
    }
    let (key, lead) = project_lead(p, s).or_else(|| project_named_before_a_verb(p, s))?;
    // «хоккей — сделала», "car: filter replaced": a report (or a cancel, or a move) about
    // what the rest names in that project, not a task to add.
    let rest: Vec<&str> =
        (0..p.tokens.len()).filter(|i| !lead.contains(i)).map(|i| p.tokens[i].text.as_str()).collect();
    // (A weak move word — "plan", "set" — is a task's verb as often.)
    let report = |t: &&str| is_command(t) && !WEAK_MOVE_WORDS.contains(t);
    // "AQUA: buy a co2 drop checker": a task's verb first makes a new task, whatever
    // command word ("drop") stands later as a noun.
    let verb_first = rest.first().is_some_and(|t| is_task_verb(t) && !is_command(t));
    // "glass idea: frosted amber drops", "work idea: a chandelier made from old lenses":
    // an idea is a thing to do, whatever past its words hold.
    let idea = lead.iter().any(|i| matches!(p.tokens[*i].text.as_str(), "idea" | "ideas" | "идея" | "идеи"));
    if (!verb_first && !idea && rest.iter().any(report)) || rest.iter().all(|t| FILLER.contains(t)) {
        return None;
    }
    // «стоматолог: записаться надо через неделю»: a lead-in that, with the rest, says an
    // open task again with a date is that task's deadline (the dental lab's description
    // naming a dentist is no lead-in to it).
    if restated() {
        return None;
    }
    // («в рейс закинь купить сим карту»: an order to add after the lead is the lead's;
    // an infinitive, «идея для гранта: добавить мастер-классы», is the task's verb.)
    let mut lead = lead;
    if let Some(next) = (0..p.tokens.len()).find(|i| !lead.contains(i))
        && matches!(p.tokens[next].text.as_str(), "закинь" | "кинь" | "добавь" | "запиши" | "add")
    {
        lead.push(next);
    }
    Some(create(p, s, lead, Some(key)))
}

/// Resolves again among a project's tasks when the message named the project first:
/// several become the ones in the project, and a task outside it gives way to the one
/// inside the project the same words name ("work: filter replaced" is the office filter,
/// though "replaced" is the kitchen one's verb). Keys carry their project.
pub(super) fn within_project(
    resolved: Resolution,
    key: &str,
    objects: &[String],
    verbs: &[String],
    tasks: &[Candidate],
) -> Resolution {
    let inside: Vec<usize> = (0..tasks.len()).filter(|i| tasks[*i].in_project(key)).collect();
    match resolved {
        Resolution::One(i) if inside.contains(&i) => Resolution::One(i),
        Resolution::Nothing if inside.is_empty() => Resolution::Nothing,
        other => {
            let scoped: Vec<Candidate> = inside.iter().map(|i| tasks[*i].clone()).collect();
            match target(objects, verbs, &scoped) {
                Resolution::One(j) => Resolution::One(inside[j]),
                Resolution::Several(js) => Resolution::Several(js.into_iter().map(|j| inside[j]).collect()),
                Resolution::Nothing => other,
            }
        }
    }
}

/// Narrows tasks the words fit about as well to those of a project another word names
/// by its key or name, where that word is in none of their titles: "lab flu shot done"
/// is the lab's "Get flu shot", not the kids' «Записать близнецов на прививку от гриппа».
pub(super) fn narrow_by_project_word(ix: Vec<usize>, objects: &[String], s: &Situation<'_>) -> Resolution {
    let in_a_title = |o: &str| {
        matching::words(o).iter().any(|m| ix.iter().any(|i| s.tasks[*i].words.iter().any(|w| matching::fits(m, w))))
    };
    let named: Vec<&str> = objects
        .iter()
        .filter(|o| !in_a_title(o))
        .flat_map(|o| s.projects.iter().filter(|pr| names_project(o, &name_only(pr))).map(|pr| pr.key.as_str()))
        .collect();
    let of_named = |i: &usize| named.iter().any(|key| s.tasks[*i].in_project(key));
    let kept: Vec<usize> = ix.iter().copied().filter(of_named).collect();
    match kept.len() {
        1 => Resolution::One(kept[0]),
        n if n > 1 && n < ix.len() => Resolution::Several(kept),
        _ => Resolution::Several(ix),
    }
}

/// Returns true for a word that asks a change of an existing task: a done, cancel or
/// move word, a past verb or a participle.
pub(super) fn is_command(t: &&str) -> bool {
    DONE_WORDS.contains(t)
        || CANCEL_WORDS.contains(t)
        || MOVE_WORDS.contains(t)
        || WEAK_MOVE_WORDS.contains(t)
        || is_past(t)
        || is_done_participle(t)
}

/// Returns the project a lead-in before a colon or a dash names («KIDS:», «для школы —»,
/// "blog idea:") and the lead-in's token positions.
/// Returns the tokens before a lead-in's colon or dash (a colon's word included), if the
/// message has one within [`LEADIN_MAX_WORDS`].
fn lead_tokens(p: &Phrase) -> Option<Vec<usize>> {
    let Some(sep) = p.words.iter().take(LEADIN_MAX_WORDS).position(|w| w.ends_with(':') || is_dash(w)) else {
        // "stunts idea reverse bungee off the bridge": a messenger drops the colon; a
        // project's word and "idea", second or third, still end a lead-in.
        let idea = |t: &str| matches!(t, "idea" | "идея");
        let at = (1..p.tokens.len().min(3)).find(|i| idea(&p.tokens[*i].text))?;
        return Some((0..=at).collect());
    };
    Some(
        (0..p.tokens.len())
            .filter(|i| p.tokens[*i].word < sep || (p.tokens[*i].word == sep && !is_dash(&p.words[sep])))
            .collect(),
    )
}

/// Returns the tokens of a lead-in that names the inbox before a colon or a dash.
pub(super) fn inbox_lead(p: &Phrase) -> Option<Vec<usize>> {
    let lead = lead_tokens(p)?;
    let content: Vec<&str> =
        lead.iter().map(|i| p.tokens[*i].text.as_str()).filter(|w| !LEADIN_FILLER.contains(w)).collect();
    let inbox = |w: &&str| matches!(*w, "inbox" | "инбокс" | "входящие" | "входящих");
    (lead.len() < p.tokens.len() && content.len() == 1 && content.iter().all(inbox)).then_some(lead)
}

pub(super) fn project_lead(p: &Phrase, s: &Situation<'_>) -> Option<(String, Vec<usize>)> {
    let lead = lead_tokens(p)?;
    if lead.is_empty() || lead.len() >= p.tokens.len() {
        return None;
    }
    // ("to tree next week: sharpen the saw": a date inside the lead is the task's, no
    // word of the project.)
    let date_in_lead = phrase::find_date(p, s.today).filter(|d| (d.start..d.end).all(|i| lead.contains(&i)));
    let words: Vec<&str> = lead
        .iter()
        .filter(|i| !date_in_lead.is_some_and(|d| (d.start..d.end).contains(*i)))
        .map(|i| p.tokens[*i].text.as_str())
        .collect();
    // (A project's name that ends like a past, «для трейла», is no report.)
    if words.iter().any(|w| is_command(w) && !s.projects.iter().any(|pr| names_project(w, pr))) {
        return None;
    }
    // «срок по аннотации — в понедельник», "reference letter - deadline in 2 weeks": a
    // deadline's topic, not a project to file a task in.
    if (0..p.tokens.len()).any(|i| is_deadline_word(&p.tokens[i].text)) {
        return None;
    }
    let content: Vec<&str> = words.iter().copied().filter(|w| !LEADIN_FILLER.contains(w)).collect();
    if content.is_empty() {
        return None;
    }
    // The project most of the words name ("photo club idea:" is the film project's by
    // "photo"); of two named as often, the one whose own words are said as written
    // ("ultrasound idea:" is the course about ultrasound, not the clinic that does «УЗИ»).
    // Each project is ranked once, by how many of the words name it, then by how many
    // name it as written, then by how many name it by its key or name — compared in that
    // order:
    // - "photo club idea:" is the film project's by "photo";
    // - "ultrasound idea:" is the course about ultrasound, not the clinic that does «УЗИ»;
    // - «идея для дома» is «Дом», not the village project's «дом в деревне».
    let rank = |pr: &ProjectName| {
        let own = matching::words(&format!("{} {} {}", pr.key, pr.name, pr.description));
        let as_written =
            |w: &&&str| matching::words(w).first().is_some_and(|m| own.iter().any(|o| matching::literally(m, o)));
        let name_only = name_only(pr);
        (
            content.iter().filter(|w| names_project(w, pr)).count(),
            content.iter().filter(as_written).count(),
            content.iter().filter(|w| names_project(w, &name_only)).count(),
        )
    };
    let ranks: Vec<(usize, usize, usize)> = s.projects.iter().map(rank).collect();
    let best = ranks.iter().copied().max().unwrap_or_default();
    let mut named: Vec<&ProjectName> =
        s.projects.iter().zip(&ranks).filter(|(_, r)| best.0 > 0 && **r == best).map(|(pr, _)| pr).collect();
    // "KIDS:", «дети:»: a project's key or name said whole wins over a word of another's
    // description ("kids" in a family project's).
    let whole = |pr: &&ProjectName| {
        content.len() == 1 && (content[0] == pr.key.to_lowercase() || content[0] == tasks_text::normalize(&pr.name))
    };
    if named.iter().any(whole) {
        named.retain(whole);
    }
    let [project] = named.as_slice() else { return None };
    Some((project.key.clone(), lead))
}

/// Returns the project and its tokens when a message starts with a project's key or
/// name — alone or after a preposition — and a task's verb follows: "home call the
/// internet guy in 3 days", «в дом купить лампочки», «серф купить новый плавник». Only
/// the key or the name counts here, not a word of the description: «мама позвонить»
/// files nothing under the family project.
pub(super) fn project_named_before_a_verb(p: &Phrase, s: &Situation<'_>) -> Option<(String, Vec<usize>)> {
    let tokens = p.token_texts();
    let by_name = |word: &str| -> Option<String> {
        let named: Vec<&ProjectName> = s.projects.iter().filter(|pr| names_project(word, &name_only(pr))).collect();
        match named.as_slice() {
            [one] => Some(one.key.clone()),
            _ => None,
        }
    };
    // («проект квартира поменять фильтр»: the word "project" first, then its name.)
    let said_project = matches!(tokens.first(), Some(&("проект" | "project")));
    let (key, used) = match tokens.first().and_then(|w| by_name(w)) {
        Some(key) if !said_project => (key, 1),
        _ if said_project => (tokens.get(1).and_then(|w| by_name(w))?, 2),
        _ => {
            let (key, used) = project_at(&tokens, 0, s.projects)?;
            // (After a preposition, too, by its key or name only.)
            tokens.get(used - 1).and_then(|w| by_name(w)).filter(|k| *k == key)?;
            (key, used)
        }
    };
    let verb = *tokens.get(used)?;
    // ("in work set up the new laptop": "set up" is a task's verb, no move.)
    let set_up = verb == "set" && tokens.get(used + 1) == Some(&"up");
    // «в ворк созвон с клиентом»: after a preposition and the project's key or name, a
    // noun leads a task too — when the rest names no open task.
    let noun_after_preposition = used >= 2 && !is_task_verb(verb) && !is_command(&verb) && {
        let (objects, verbs) = mention_skipping(&tokens, None, &(0..used).collect::<Vec<_>>());
        target(&objects, &verbs, s.tasks) == Resolution::Nothing
    };
    if !(is_task_verb(verb) && !is_command(&verb) || set_up || noun_after_preposition) || tokens.len() <= used + 1 {
        return None;
    }
    // «бима стричь не будем удали»: a command or a negation after is about an open task.
    let after = if set_up { used + 2 } else { used + 1 };
    if tokens[after..].iter().any(is_command) || is_negated(&tokens) || p.words.iter().any(|w| w.contains('?')) {
        return None;
    }
    // "car wash day after tomorrow" is «Помыть машину»: the lead's word and the verb are
    // an open task's own.
    let (lead, verb) = (matching::words(tokens[used - 1]), matching::words(verb));
    let an_open_task = s.tasks.iter().any(|t| {
        lead.first().is_some_and(|l| t.words.iter().any(|w| matching::fits(l, w)))
            && verb.first().is_some_and(|v| starts_with_verb(t, v))
    });
    (!an_open_task).then(|| (key, (0..used).collect()))
}

/// Returns true when a word of the lead names the project by its key or its name, not
/// only by a word of its description.
pub(super) fn lead_names_project_by_name(tokens: &[&str], lead: &[usize], key: &str, s: &Situation<'_>) -> bool {
    s.projects
        .iter()
        .find(|pr| pr.key == key)
        .is_some_and(|pr| lead.iter().any(|i| tokens.get(*i).is_some_and(|w| names_project(w, &name_only(pr)))))
}

/// Returns a project as its key and name alone, without the words of its description.
fn name_only(project: &ProjectName) -> ProjectName {
    ProjectName { key: project.key.clone(), name: project.name.clone(), description: String::new() }
}

/// Holds how many words a project lead-in may have before its colon: 5.
pub(super) const LEADIN_MAX_WORDS: usize = 5;

pub(super) fn is_dash(word: &str) -> bool {
    matches!(word, "—" | "–" | "-")
}

/// Returns true when a word names a project: its key, a word of its name, or a word of
/// its description sharing a stem or a concept.
pub(super) fn names_project(word: &str, project: &ProjectName) -> bool {
    // «бим» is "Bim", «хоум» is no key: the key or the name written in the other script.
    // («тойота» / "toyota": y and й are one sound.)
    // ("trail" is «трейл»: an English "ai" is a Russian «ей».)
    let spelled = |w: &str| tasks_core::dedup::entities::translit(w).replace('y', "i").replace("ai", "ei");
    let key = project.key.to_lowercase();
    // («в лабу», «для лабы»: a Russian case ending on the name written in Latin, "Lab".)
    let name = spelled(&tasks_text::normalize(&project.name));
    let bare = |w: &str| {
        let s = spelled(w);
        ["u", "y", "a", "e", "i", "om", "oi"]
            .iter()
            .find_map(|e| s.strip_suffix(e).map(str::to_string))
            .filter(|_| !w.is_ascii())
            .unwrap_or(s)
    };
    if word == key
        || spelled(word) == spelled(&key)
        || spelled(word) == name
        || (name.len() >= 3 && (bare(word) == name || bare(word) == spelled(&key)))
    {
        return true;
    }
    let w = matching::words(word);
    let Some(w) = w.first() else { return false };
    // (A compound the lexicon knows is its parts too: "table" names "Table tennis", read
    // as one word.)
    let with_parts = |ws: Vec<matching::Word>| -> Vec<matching::Word> {
        ws.into_iter()
            .flat_map(|mut n| {
                let parts = std::mem::take(&mut n.parts);
                std::iter::once(n).chain(parts)
            })
            .collect()
    };
    let name = with_parts(matching::words(&project.name));
    if name.iter().any(|n| matching::fits(w, n)) {
        return true;
    }
    with_parts(matching::words(&project.description))
        .iter()
        .any(|d| matching::fit_of(w, d) == Some(matching::Strength::Strong))
}

/// Words of small talk that make no task of a phrase that starts like one ("tell me a
/// joke", «расскажи анекдот», "what's the weather"): answered with the help line.
pub(super) const SMALL_TALK: &[&str] =
    &["joke", "jokes", "weather", "анекдот", "анекдоты", "шутку", "шутка", "погода", "погоду", "погоды"];

/// Words of the weather: said with no order and no report, the weather is talked about.
const WEATHER_WORDS: &[&str] = &[
    "дождь",
    "дожди",
    "дождик",
    "ливень",
    "снег",
    "снегопад",
    "ветер",
    "ветрище",
    "ветрина",
    "жара",
    "жарища",
    "холод",
    "холодина",
    "мороз",
    "морозы",
    "гроза",
    "туман",
    "метель",
    "слякоть",
    "rain",
    "raining",
    "rainy",
    "snow",
    "snowing",
    "windy",
    "storm",
    "stormy",
    "fog",
    "foggy",
    "humid",
    "heatwave",
];

/// Returns true when a message talks about the weather: a weather word no open task's
/// title has, and no order, no report and no verb of a task.
pub(super) fn weather_talk(tokens: &[&str], tasks: &[Candidate]) -> bool {
    let weather: Vec<&str> = tokens.iter().copied().filter(|t| WEATHER_WORDS.contains(t)).collect();
    if weather.is_empty() {
        return false;
    }
    // (Words that end like an infinitive and are none: «опять», «жуть», «новость».)
    let infinitive =
        |t: &str| is_task_verb(t) && !matches!(t, "опять" | "жуть" | "суть" | "путь") && !t.ends_with("ость");
    let acts = tokens.iter().any(|t| {
        infinitive(t)
            || is_past(t)
            || is_done_participle(t)
            || DONE_WORDS.contains(t)
            || CANCEL_WORDS.contains(t)
            || MOVE_WORDS.contains(t)
    });
    let in_a_title = weather.iter().any(|w| {
        let word = matching::words(w);
        word.first().is_some_and(|m| {
            tasks.iter().any(|t| t.words.iter().any(|tw| matching::fit_of(m, tw) == Some(matching::Strength::Strong)))
        })
    });
    !acts && !in_a_title
}

/// Returns true for a request to the assistant itself, not a task: "write me a haiku",
/// "tell me a story", «напиши мне стих», «придумай мне шутку».
pub(super) fn asks_the_assistant(tokens: &[&str]) -> bool {
    let creative = |t: &str| {
        matches!(
            t,
            "write"
                | "tell"
                | "compose"
                | "make"
                | "give"
                | "sing"
                | "draw"
                | "напиши"
                | "расскажи"
                | "придумай"
                | "сочини"
                | "нарисуй"
                | "спой"
        )
    };
    // "write a poem about walnuts": verse and songs are asked of the assistant.
    let verse = |t: &str| {
        matches!(t, "poem" | "haiku" | "limerick" | "song" | "verse" | "стих" | "стишок" | "стихотворение" | "песню")
    };
    // ("write a haiku for the blog" has a purpose: a task.)
    let purpose = tokens.iter().any(|t| matches!(*t, "for" | "для" | "к" | "ко"));
    if tokens.first().is_some_and(|t| creative(t)) && tokens.iter().take(4).any(|t| verse(t)) && !purpose {
        return true;
    }
    match tokens {
        // ("tell me something nice": something, as "a" anything.)
        [verb, "me", article, ..] => {
            creative(verb) && matches!(*article, "a" | "an" | "some" | "something" | "anything")
        }
        [verb, "мне", ..] => creative(verb),
        _ => false,
    }
}

/// Reads a message that starts (after a date) with a task verb as a new task.
pub(super) fn implicit_create(p: &Phrase, s: &Situation<'_>, date: Option<DateSpan>) -> Option<Parsed> {
    let tokens = p.token_texts();
    if p.words.iter().any(|w| w.ends_with('?')) || tokens.iter().any(|t| SMALL_TALK.contains(t)) {
        return None;
    }
    let first = (0..tokens.len()).find(|i| date.is_none_or(|d| *i < d.start || *i >= d.end))?;
    if !is_task_verb(tokens[first]) || asks_the_assistant(&tokens[first..]) {
        return None;
    }
    Some(create(p, s, Vec::new(), None))
}

/// Builds a create call from a message with `drop` tokens left out of the text.
pub(super) fn create(p: &Phrase, s: &Situation<'_>, mut drop: Vec<usize>, project: Option<String>) -> Parsed {
    let rest: Vec<usize> = (0..p.tokens.len()).filter(|i| !drop.contains(i)).collect();
    let date = {
        // The date is looked for in what remains, so a lead word is never part of it.
        let kept = Phrase { words: p.words.clone(), tokens: rest.iter().map(|i| p.tokens[*i].clone()).collect() };
        phrase::find_date(&kept, s.today).map(|d| (d, rest[d.start..d.end].to_vec()))
    };
    // «в дом на выходных: помыть окна», "add for tomorrow: …": a date said inside the
    // lead, all of it, is the task's (its words go with the lead).
    let date = date.or_else(|| {
        phrase::find_date(p, s.today)
            .filter(|d| (d.start..d.end).all(|i| drop.contains(&i)))
            .map(|d| (d, (d.start..d.end).collect()))
    });
    if let Some((_, tokens)) = &date {
        drop.extend(tokens.iter().copied());
        // "remind me on friday to call …": the filler the date stood before goes too.
        let mut next = tokens.last().map(|t| t + 1).unwrap_or(0);
        while next < p.tokens.len()
            && !drop.contains(&next)
            && CREATE_FILLER.contains(&p.tokens[next].text.as_str())
            && rest.first() == tokens.first()
        {
            drop.push(next);
            next += 1;
        }
    }
    let text = p.text_without(&drop);
    if text.is_empty() {
        return Parsed::NotUnderstood(NotUnderstood::UnknownPhrase);
    }
    let deadline = match date {
        Some((d, _)) => deadline_of(d),
        None => Deadline { kind: DeadlineKind::None, date: None },
    };
    Parsed::Steps(vec![Step::Run(Call::CreateTask { text, project, deadline })])
}

/// Reads a project named at token `at`: `в проект X`, `в X`, `to X`, `to project X`,
/// `in X` (X a project's key or name); returns its key and the tokens used.
pub(super) fn project_at(tokens: &[&str], at: usize, projects: &[ProjectName]) -> Option<(String, usize)> {
    let lead = *tokens.get(at)?;
    if !matches!(lead, "в" | "во" | "по" | "для" | "to" | "in" | "into" | "for") {
        return None;
    }
    let mut name_at = at + 1;
    // "add to the office: …", "to my blog": the article or possessive is no name.
    if matches!(tokens.get(name_at), Some(&"the" | &"my" | &"our" | &"мой" | &"мои" | &"мою")) {
        name_at += 1;
    }
    if matches!(tokens.get(name_at), Some(&"проект" | &"project")) {
        name_at += 1;
    }
    let name = *tokens.get(name_at)?;
    // A name of several words ("side project", «личные дела») is matched whole.
    // (Or its first two words and more: "add to co-op:" for "Co-op board".)
    let whole = projects.iter().find_map(|p| {
        let pname = tasks_text::normalize(&p.name);
        let words: Vec<&str> = pname.split(' ').collect();
        (2..=words.len())
            .rev()
            .find(|k| words.len() > 1 && tokens.get(name_at..name_at + k) == Some(&words[..*k]))
            .map(|k| (p, k))
    });
    let by_name = || {
        projects.iter().find(|p| {
            let key = p.key.to_lowercase();
            let pname = tasks_text::normalize(&p.name);
            name == key
                || name == pname
                || (pname.chars().count() >= 4 && name.starts_with(&pname[..pname.len().min(8)]))
        })
    };
    // «добавь в переводы …», "add to home: …": a word of one project's description only,
    // when it is no task verb («добавь в поездку купить билеты» is no project).
    let by_description = || {
        let fit: Vec<&ProjectName> = projects.iter().filter(|p| names_project(name, p)).collect();
        match fit.as_slice() {
            [one] if !is_task_verb(name) => Some(*one),
            _ => None,
        }
    };
    let (project, length) = match whole {
        Some(found) => found,
        None => (by_name().or_else(by_description)?, 1),
    };
    let mut end = name_at + length;
    // `add to side project:` — the word "project" after a key or a one-word name.
    if matches!(tokens.get(end), Some(&"проект" | &"project")) {
        end += 1;
    }
    // «в поездку на годовщину» for "Anniversary trip": the rest of the project's name,
    // said after a preposition, is the name too.
    let name_words = matching::words(&project.name);
    let of_the_name =
        |t: &str| matching::words(t).first().is_some_and(|w| name_words.iter().any(|n| matching::fits(w, n)));
    if tokens.get(end).is_some_and(|t| matches!(*t, "на" | "для" | "for" | "of"))
        && tokens.get(end + 1).is_some_and(|t| of_the_name(t))
        && tokens.len() > end + 2
    {
        end += 2;
    }
    Some((project.key.clone(), end - at))
}
