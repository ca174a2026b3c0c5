//! A small built-in cross-language lexicon: common task words of Russian, English and
//! Spanish mapped to shared concept ids, so that "Send the invoice", «Отправить счёт» and
//! "Enviar la factura" can be seen to talk about the same things (SPEC §5: cross-language
//! duplicates were the seed's weakest case, 2 of 5 found).
//!
//! The vocabulary is general: what personal, freelance and small-business task lists
//! contain (communication, money, documents, design and media, travel, health, home,
//! family, learning). Keys are built at first use by stemming each surface word with the
//! same [`Stemmers`] the stems come from, so the table cannot drift from the stemmer.
//! A polysemous word may be listed under two concepts (`перевести` is both transfer and
//! translate); it then yields both.
//!
//! Keys carry their language: an English word is indexed by its English stem, a Spanish
//! word by its Spanish stem. A Latin token of a text is looked up by both of its stems,
//! unless the token itself is a listed surface word — then only in the language(s) that
//! list it. Without that rule English `page` (Spanish stem `pag`) would read as Spanish
//! `pagar`.
//!
//! What it deliberately does not do: no weights, no multi-word expressions, no
//! disambiguation by context, no words chosen to match particular pairs of a test set.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::normalize::normalize;
use crate::stems::{Language, Script, Stemmers, TokenStems, token_stems};

/// A concept shared across languages, named by its English word (`invoice`, `send`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConceptId(pub &'static str);

impl ConceptId {
    /// Returns the concept's name.
    pub fn name(self) -> &'static str {
        self.0
    }
}

/// One concept: its id and its surface words per language.
struct Concept {
    /// The id.
    id: &'static str,
    /// English words.
    en: &'static [&'static str],
    /// Russian words.
    ru: &'static [&'static str],
    /// Spanish words (accents optional: they are normalized away).
    es: &'static [&'static str],
}

/// Builds a [`Concept`] (keeps the table below compact).
const fn c(
    id: &'static str,
    en: &'static [&'static str],
    ru: &'static [&'static str],
    es: &'static [&'static str],
) -> Concept {
    Concept { id, en, ru, es }
}

/// The concepts. General task vocabulary, grouped by life area.
#[rustfmt::skip]
static CONCEPTS: &[Concept] = &[
    // Communication.
    c("send",
        &["send", "sending", "sent", "forward"],
        &[
            "отправить", "отправь", "отправлю", "отправлять", "отправка", "отослать", "выслать",
            "вышли", "прислать", "пришли", "пришлю", "присылать", "переслать", "перешли",
            "скинуть", "скинь", "скину",
        ],
        &["enviar", "envía", "envío", "mandar", "manda", "mándame", "reenviar"],
    ),
    c("call",
        &["call", "calls", "ring"],
        &[
            "позвонить", "позвони", "позвоню", "звонок", "звонить", "созвон", "созвониться",
            "созвонимся",
        ],
        &["llamar", "llama", "llamada", "llamadas"],
    ),
    c("meeting",
        &["meeting", "meet", "meetup", "sync"],
        &["встреча", "встречу", "встретиться", "совещание", "планерка"],
        &["reunión", "reunirse", "quedar"],
    ),
    c("write",
        &["write", "writing", "written"],
        &["написать", "напиши", "напишу", "писать"],
        &["escribir", "escribe", "redactar", "redacción"],
    ),
    c("reply",
        &["reply", "respond", "response", "answer"],
        &["ответить", "ответь", "отвечу", "ответ"],
        &["responder", "responde", "respuesta", "contestar"],
    ),
    c("ask",
        &["ask", "inquire"],
        &["спросить", "спроси", "уточнить", "уточни", "узнать"],
        &["preguntar", "pregunta", "consultar"],
    ),
    c("remind",
        &["remind", "reminder"],
        &["напомнить", "напомни", "напоминание"],
        &["recordar", "recuérdame", "recordatorio"],
    ),
    c("tell",
        &["tell", "inform", "notify", "warn"],
        &["предупредить", "предупреди", "сообщить", "сообщи", "сказать", "скажи", "уведомить"],
        &["avisar", "avisa", "dile"],
    ),
    c("discuss",
        &["discuss", "discussion", "talk"],
        &["обсудить", "обсуди", "обсуждение", "поговорить"],
        &["discutir", "hablar", "charlar"],
    ),
    c("approve",
        &["approve", "approval"],
        &["согласовать", "согласуй", "согласование", "утвердить", "утверждение"],
        &["aprobar", "aprobación", "validar"],
    ),
    c("confirm",
        &["confirm", "confirmation"],
        &["подтвердить", "подтверди", "подтверждение"],
        &["confirmar", "confirmación"],
    ),
    c("cancel",
        &["cancel", "cancellation"],
        &["отменить", "отмени", "отмена"],
        &["cancelar", "cancelación", "anular"],
    ),
    c("reserve",
        &["book", "booking", "reserve", "reservation"],
        &["забронировать", "бронь", "бронирование", "бронировать"],
        &["reservar", "reserva"],
    ),
    c("appointment",
        &["appointment", "slot"],
        &["записаться", "запишись", "записать", "запись", "приём"],
        &["cita", "turno"],
    ),
    c("share", &["share", "sharing"], &["поделиться", "расшарить"], &["compartir"]),
    c("review",
        &["review", "check", "proofread"],
        &["проверить", "проверь", "проверка", "посмотреть", "посмотри", "глянуть"],
        &["revisar", "revisa", "revisión", "comprobar", "repasar"],
    ),
    c("fix",
        &["fix", "repair", "broken"],
        &["починить", "почини", "починка", "исправить", "исправь"],
        &["arreglar", "reparar", "corregir"],
    ),
    c("update",
        &["update", "refresh"],
        &["обновить", "обнови", "обновление", "актуализировать"],
        &["actualizar", "actualización"],
    ),
    c("prepare",
        &["prepare", "prep", "preparation"],
        &["подготовить", "подготовь", "подготовка"],
        &["preparar", "preparación"],
    ),
    c("change",
        &["change", "changes", "edit", "edits", "revision", "revisions"],
        &["правки", "правка", "изменения", "изменить", "поменять"],
        &["cambio", "cambios", "cambiar", "modificar"],
    ),
    c("comments",
        &["feedback", "comment", "comments"],
        &["комментарии", "комментарий", "комменты", "фидбек", "отзыв"],
        &["comentarios", "comentario", "opinión"],
    ),
    c("translate",
        &["translate", "translation", "translator"],
        &["перевести", "перевод", "переводчик"],
        &["traducir", "traducción", "traductor"],
    ),
    c("choose",
        &["choose", "pick", "select", "selection"],
        &["выбрать", "выбери", "выбор", "подобрать", "подборка"],
        &["elegir", "elige", "seleccionar", "escoger"],
    ),
    c("message", &["message", "messages", "sms"], &["сообщение", "смс"], &["mensaje"]),
    c("email", &["email", "mail"], &["почта", "письмо"], &["correo"]),
    // Work and documents.
    c("design",
        &["design", "redesign", "mockup"],
        &["дизайн", "редизайн", "макет", "макеты"],
        &["diseño", "diseñar", "rediseñar"],
    ),
    c("layout",
        &["layout", "typeset"],
        &["вёрстка", "сверстать", "верстать"],
        &["maquetar", "maquetación"],
    ),
    c("draft", &["draft"], &["черновик", "набросок"], &["borrador"]),
    c("print",
        &["print", "printing", "printer"],
        &["печать", "распечатать", "напечатать", "печатать", "типография"],
        &["imprimir", "impresión", "imprenta"],
    ),
    c("sign",
        &["sign", "signed", "signature"],
        &["подписать", "подпиши", "подпись"],
        &["firmar", "firma"],
    ),
    c("contract",
        &["contract", "agreement"],
        &["договор", "контракт"],
        &["contrato", "acuerdo"],
    ),
    c("nda", &["nda", "confidentiality"], &["неразглашении"], &["confidencialidad"]),
    c("document",
        &["document", "documents", "docs", "paperwork"],
        &["документ", "документы"],
        &["documento", "documentación"],
    ),
    c("certificate", &["certificate"], &["справка", "справку"], &["certificado"]),
    c("act", &[], &["акт", "акты", "закрывающие"], &[]),
    c("report", &["report"], &["отчёт", "отчет", "доклад"], &["informe", "reporte"]),
    c("presentation",
        &["presentation", "deck", "slides"],
        &["презентация", "слайды"],
        &["presentación", "diapositivas"],
    ),
    c("file", &["file", "files"], &["файл", "файлы"], &["archivo", "archivos", "fichero"]),
    c("folder", &["folder"], &["папка", "папку"], &["carpeta"]),
    c("template", &["template"], &["шаблон"], &["plantilla"]),
    c("form",
        &["form", "questionnaire"],
        &["анкета", "заявка", "заявление"],
        &["formulario", "solicitud"],
    ),
    c("text", &["text"], &["копирайт", "текст", "тексты"], &["texto"]),
    c("article", &["article", "blog"], &["статья", "статью", "блог"], &["artículo"]),
    c("export", &["export"], &["экспорт", "экспортировать", "выгрузить"], &["exportar"]),
    c("upload", &["upload"], &["загрузить", "выложить"], &["subir"]),
    c("download", &["download"], &["скачать"], &["descargar"]),
    c("install", &["install"], &["установить"], &["instalar"]),
    c("client", &["client", "customer"], &["клиент", "заказчик"], &["cliente"]),
    c("project", &["project"], &["проект"], &["proyecto"]),
    c("team", &["team"], &["команда"], &["equipo"]),
    c("task", &["task"], &["задача"], &["tarea"]),
    c("deadline", &["deadline"], &["дедлайн", "срок"], &["plazo"]),
    c("plan", &["plan", "planning"], &["план", "планирование"], &["planificar"]),
    c("schedule",
        &["calendar", "schedule"],
        &["календарь", "расписание", "график"],
        &["calendario", "horario"],
    ),
    c("event", &["event"], &["мероприятие", "событие"], &["evento"]),
    c("conference", &["conference"], &["конференция"], &["conferencia"]),
    c("interview", &["interview"], &["собеседование", "интервью"], &["entrevista"]),
    c("award",
        &["award", "awards", "competition", "contest"],
        &["премия", "конкурс"],
        &["premio", "concurso"],
    ),
    c("bug", &["bug", "error"], &["ошибка", "баг"], &["fallo"]),
    c("test", &["test", "testing"], &["тест", "тестировать"], &["prueba"]),
    c("release",
        &["release", "launch"],
        &["релиз", "запуск", "запустить"],
        &["lanzamiento", "lanzar"],
    ),
    c("access", &["access", "permission"], &["доступ"], &["acceso", "permiso"]),
    c("password", &["password"], &["пароль"], &["contraseña"]),
    c("account", &["account"], &["аккаунт"], &["cuenta"]),
    c("app", &["app"], &["приложение"], &["aplicación"]),
    c("screen", &["screen", "screens"], &["экран", "экраны"], &["pantalla"]),
    c("backup", &["backup"], &["бэкап", "бекап"], &["copia"]),
    c("laptop",
        &["laptop", "computer"],
        &["ноутбук", "ноут", "компьютер"],
        &["portátil", "ordenador", "computadora"],
    ),
    c("phone", &["phone", "smartphone"], &["телефон", "смартфон"], &["teléfono", "móvil"]),
    c("website", &["website", "site", "web", "landing"], &["сайт", "лендинг"], &["sitio"]),
    c("page", &["page"], &["страница", "страницу"], &["página"]),
    c("domain", &["domain"], &["домен"], &["dominio"]),
    c("subscription",
        &["subscription", "subscribe"],
        &["подписка", "подписку"],
        &["suscripción"],
    ),
    c("renew",
        &["renew", "renewal", "extend"],
        &["продлить", "продление"],
        &["renovar", "renovación"],
    ),
    c("license", &["license", "licence"], &["лицензия", "лицензию"], &["licencia"]),
    // Design and media.
    c("logo", &["logo", "logotype"], &["логотип", "лого"], &["logotipo"]),
    c("brand",
        &["brand", "branding", "rebrand", "rebranding"],
        &["бренд", "брендинг", "брендбук"],
        &["marca"],
    ),
    c("menu", &["menu"], &["меню"], &["menú", "carta"]),
    c("banner", &["banner", "banners"], &["баннер", "баннеры"], &["pancarta"]),
    c("poster", &["poster"], &["плакат", "постер", "афиша"], &["cartel"]),
    c("signage",
        &["signage"],
        &["вывеска", "вывеску", "табличка", "таблички"],
        &["señalética", "letrero", "rótulo"],
    ),
    c("sticker",
        &["sticker", "stickers"],
        &["наклейка", "наклейки", "стикер", "стикеры"],
        &["pegatina"],
    ),
    c("packaging",
        &["packaging", "package"],
        &["упаковка", "пакет", "пакеты"],
        &["embalaje", "paquete"],
    ),
    c("photo",
        &["photo", "photos", "photograph"],
        &["фото", "фотография", "фотки", "снимок"],
        &["foto", "fotos", "fotografía"],
    ),
    c("image", &["image", "picture"], &["картинка", "изображение"], &["imagen"]),
    c("video", &["video"], &["видео", "ролик"], &["vídeo"]),
    c("animation", &["animation"], &["анимация", "анимацию"], &["animación"]),
    c("illustration",
        &["illustration", "illustrations", "illustrator", "drawing"],
        &["иллюстрация", "иллюстрации", "иллюстратор", "рисунок"],
        &["ilustración", "ilustrador", "dibujo"],
    ),
    c("icon", &["icon", "icons"], &["иконка", "иконки"], &["icono", "iconos"]),
    c("font",
        &["font", "fonts", "typeface", "typography"],
        &["шрифт", "шрифты", "типографика"],
        &["fuente", "tipografía"],
    ),
    c("color", &["color", "colour"], &["цвет", "цвета"], &["colores"]),
    c("portfolio", &["portfolio"], &["портфолио"], &["portafolio"]),
    c("proof", &["proof", "proofs"], &["цветопроба", "пробник"], &[]),
    c("card",
        &["card", "cards"],
        &["карта", "карту", "карточка", "визитка", "визитки"],
        &["tarjeta", "tarjetas"],
    ),
    c("shirt", &["shirt", "tshirt"], &["футболка", "футболку"], &["camiseta"]),
    c("post", &["post", "posts"], &["пост", "посты", "публикация"], &["post"]),
    c("publish", &["publish"], &["опубликовать"], &["publicar"]),
    c("ad", &["ad", "ads", "advert", "advertising"], &["реклама", "рекламу"], &["anuncio"]),
    c("promo", &["promo", "promotion"], &["промо", "продвижение"], &["promoción"]),
    c("channel", &["channel"], &["канал"], &["canal"]),
    c("podcast", &["podcast"], &["подкаст"], &["pódcast"]),
    c("content", &["content"], &["контент"], &["contenido"]),
    c("stats",
        &["statistics", "stats", "analytics", "metrics", "reach"],
        &["статистика", "аналитика", "метрики", "охваты", "охват"],
        &["estadísticas", "métricas", "alcance"],
    ),
    c("social", &["social", "instagram"], &["соцсети", "соцсетей", "инстаграм"], &["redes"]),
    c("stories", &["stories"], &["сторис"], &["historias"]),
    // Money.
    c("pay",
        &["pay", "payment", "paid"],
        &["оплатить", "оплати", "оплата", "заплатить", "платёж"],
        &["pagar", "pago"],
    ),
    c("invoice",
        &["invoice", "invoices", "bill"],
        &["счёт", "счет", "счета"],
        &["factura", "facturas", "facturar"],
    ),
    c("transfer",
        &["transfer"],
        &["перевести", "переведи", "перевод"],
        &["transferir", "transferencia"],
    ),
    c("buy",
        &["buy", "purchase"],
        &["купить", "куплю", "купи", "покупка", "докупить", "закупить"],
        &["comprar", "compra"],
    ),
    c("order", &["order"], &["заказать", "закажи", "заказ"], &["encargar", "pedido"]),
    c("delivery",
        &["delivery", "deliver", "shipping"],
        &["доставка", "доставку", "доставить", "привезти"],
        &["entrega", "entregar"],
    ),
    c("return",
        &["return"],
        &["вернуть", "верни", "возврат", "отдать", "отдай"],
        &["devolver", "devolución"],
    ),
    c("refund", &["refund"], &[], &["reembolso"]),
    c("rent",
        &["rent", "rental", "lease"],
        &["аренда", "аренду", "арендовать"],
        &["alquiler", "alquilar"],
    ),
    c("tax",
        &["tax", "taxes"],
        &["налог", "налоги", "налоговая"],
        &["impuesto", "impuestos", "hacienda"],
    ),
    c("deduction", &["deduction"], &["вычет"], &["deducción"]),
    c("receipt", &["receipt", "receipts"], &["чек", "чеки", "квитанция"], &["recibo"]),
    c("quote", &["quote", "estimate", "quotation"], &["смета"], &["presupuesto", "cotización"]),
    c("budget", &["budget"], &["бюджет"], &[]),
    c("proposal", &["proposal"], &["предложение"], &["propuesta"]),
    c("price",
        &["price", "pricing", "rate", "cost"],
        &["цена", "стоимость", "прайс", "тариф"],
        &["precio", "tarifa", "coste", "costo"],
    ),
    c("discount", &["discount"], &["скидка"], &["descuento"]),
    c("advance",
        &["advance", "prepayment", "deposit"],
        &["аванс", "предоплата", "задаток"],
        &["anticipo", "adelanto", "depósito"],
    ),
    c("fee", &["fee"], &["гонорар"], &["honorarios"]),
    c("salary", &["salary"], &["зарплата"], &["salario", "sueldo"]),
    c("money", &["money", "cash"], &["деньги", "наличные"], &["dinero", "efectivo"]),
    c("debt", &["debt", "loan"], &["долг", "кредит"], &["deuda", "préstamo"]),
    c("bank", &["bank"], &["банк"], &["banco"]),
    c("insurance",
        &["insurance", "policy"],
        &["страховка", "страхование", "полис"],
        &["seguro", "póliza"],
    ),
    // Travel.
    c("ticket",
        &["ticket", "tickets"],
        &["билет", "билеты"],
        &["boleto", "billete", "entrada"],
    ),
    c("flight",
        &["flight", "flights"],
        &["рейс", "перелёт", "авиабилеты"],
        &["vuelo", "vuelos"],
    ),
    c("train", &["train"], &["поезд", "электричка"], &["tren"]),
    c("hotel", &["hotel"], &["отель", "гостиница"], &["hotel"]),
    c("trip",
        &["trip", "travel", "journey"],
        &["поездка", "путешествие", "командировка"],
        &["viaje", "viajar"],
    ),
    c("visa", &["visa"], &["виза", "визу", "визовый"], &["visado"]),
    c("passport", &["passport"], &["паспорт"], &["pasaporte"]),
    c("airport", &["airport"], &["аэропорт"], &["aeropuerto"]),
    c("taxi", &["taxi", "cab"], &["такси"], &["taxi"]),
    c("car", &["car", "auto"], &["машина", "машину", "автомобиль"], &["coche", "carro"]),
    c("drive",
        &["drive", "ride"],
        &["отвезти", "отвези", "свозить", "подвезти", "довезти"],
        &["llevar"],
    ),
    c("collect",
        &["collect", "fetch"],
        &["забрать", "заберу", "забери"],
        &["recoger", "recoge"],
    ),
    c("visit", &["visit"], &["посетить", "съездить", "посещение"], &["visitar", "visita"]),
    c("excursion", &["excursion", "tour"], &["экскурсия", "экскурсию"], &["excursión"]),
    // Health.
    c("doctor", &["doctor", "physician"], &["врач", "доктор"], &["médico"]),
    c("dentist", &["dentist", "dental"], &["стоматолог", "зубной"], &["dentista"]),
    c("clinic", &["clinic", "hospital"], &["клиника", "больница", "поликлиника"], &["clínica"]),
    c("medicine",
        &["medicine", "pills", "prescription"],
        &["лекарство", "лекарства", "таблетки", "рецепт"],
        &["medicamento", "receta", "pastillas"],
    ),
    c("physio",
        &["physio", "physiotherapy", "physiotherapist"],
        &["физиотерапевт", "физиотерапия"],
        &["fisioterapeuta", "fisio"],
    ),
    c("eye_doctor",
        &["optician", "ophthalmologist"],
        &["окулист", "офтальмолог"],
        &["oculista", "oftalmólogo"],
    ),
    c("pool", &["pool", "swimming"], &["бассейн"], &["piscina"]),
    c("gym", &["gym", "workout"], &["спортзал", "тренировка"], &["gimnasio", "entrenamiento"]),
    // Home.
    c("renovation", &["renovation"], &["ремонт"], &["reforma", "obra"]),
    c("tile", &["tile", "tiles"], &["плитка", "плитку", "плиточный"], &["azulejo", "baldosa"]),
    c("glue", &["glue", "adhesive"], &["клей"], &["pegamento", "adhesivo"]),
    c("paint", &["paint", "painting"], &["краска", "покрасить"], &["pintura", "pintar"]),
    c("electric",
        &["electrician", "electrical", "wiring"],
        &["электрик", "электрика", "электромонтаж", "проводка"],
        &["electricista", "electricidad"],
    ),
    c("plumbing",
        &["plumber", "plumbing", "faucet"],
        &["сантехник", "сантехника", "смеситель", "смесители"],
        &["fontanero", "grifo"],
    ),
    c("lamp",
        &["lamp", "light", "lights", "lighting", "chandelier"],
        &["светильник", "светильники", "люстра", "лампа", "освещение"],
        &["lámpara", "luz", "iluminación"],
    ),
    c("socket", &["socket", "outlet"], &["розетка", "розетки"], &["enchufe"]),
    c("furniture",
        &["furniture", "shelf"],
        &["мебель", "полка", "полку", "шкаф"],
        &["mueble", "muebles", "estantería"],
    ),
    c("kitchen", &["kitchen"], &["кухня", "кухню", "кухни"], &["cocina"]),
    c("bathroom", &["bathroom", "bath"], &["ванная", "ванна", "ванную"], &["baño"]),
    c("cleaning",
        &["cleaning", "clean", "cleaner"],
        &["уборка", "клининг", "убрать"],
        &["limpieza", "limpiar"],
    ),
    c("garbage",
        &["trash", "garbage", "rubbish", "waste"],
        &["мусор", "вывоз"],
        &["basura", "residuos"],
    ),
    c("water", &["water"], &["вода", "воду", "воды"], &["agua"]),
    c("key", &["key", "keys"], &["ключ", "ключи"], &["llave", "llaves"]),
    c("neighbor", &["neighbor", "neighbour"], &["сосед", "соседи"], &["vecino"]),
    c("apartment", &["apartment", "flat"], &["квартира", "квартиру"], &["piso", "apartamento"]),
    c("landlord", &["landlord"], &["хозяин", "арендодатель"], &["casero"]),
    c("utilities", &["utilities"], &["коммуналка", "жкх"], &["suministros"]),
    c("hang", &["hang"], &["повесить"], &["colgar"]),
    c("measure",
        &["measure", "measurements"],
        &["замер", "замеры", "измерить"],
        &["medir", "medidas"],
    ),
    c("parcel", &["parcel"], &["посылка", "посылку"], &[]),
    // Family and life.
    c("mother",
        &["mom", "mum", "mother"],
        &["мама", "маму", "маме", "мамы", "мать"],
        &["mamá", "madre"],
    ),
    c("father", &["dad", "father"], &["папа", "папу", "папе", "отец"], &["papá", "padre"]),
    c("sibling",
        &["sister", "brother", "sibling"],
        &["сестра", "сестре", "брат", "брату"],
        &["hermana", "hermano"],
    ),
    c("parents", &["parents"], &["родители", "родителям"], &[]),
    c("child",
        &["child", "kid", "kids", "daughter"],
        &["ребёнок", "дочь", "дочка", "сын"],
        &["niño", "niña", "hija", "hijo"],
    ),
    c("gift", &["gift"], &["подарок", "подарки"], &["regalo"]),
    c("birthday", &["birthday", "bday"], &["рождения", "днюха"], &["cumpleaños"]),
    c("party", &["party"], &["праздник", "вечеринка"], &["fiesta", "celebración"]),
    c("restaurant", &["restaurant"], &["ресторан"], &["restaurante"]),
    c("table", &["table"], &["столик"], &["mesa"]),
    c("flowers", &["flowers"], &["букет"], &["flores"]),
    c("food", &["food", "groceries"], &["еда", "продукты"], &["comida"]),
    c("consent", &["consent"], &[], &["consentimiento"]),
    c("camp", &["camp"], &["лагерь"], &["campamento"]),
    // Learning.
    c("school", &["school"], &["школа", "школу", "школы"], &["escuela", "colegio"]),
    c("teacher",
        &["teacher", "tutor"],
        &["учитель", "учительница", "преподаватель", "репетитор"],
        &["profesor", "profesora", "maestro", "maestra"],
    ),
    c("course",
        &["course", "class", "classes", "lesson", "lessons"],
        &["курс", "занятие", "занятия", "урок", "уроки"],
        &["curso", "clase", "clases", "lección"],
    ),
    c("exercise",
        &["exercise", "exercises", "homework"],
        &["упражнение", "упражнения", "домашка"],
        &["ejercicio", "ejercicios", "deberes"],
    ),
    c("book_reading",
        &["textbook", "textbooks"],
        &["книга", "книгу", "книги", "учебник", "учебники"],
        &["libro", "libros"],
    ),
    c("library", &["library"], &["библиотека", "библиотеку"], &["biblioteca"]),
];

/// The lexicon's lookup tables, built from [`CONCEPTS`] at first use.
struct Index {
    /// (language, stem) → concepts.
    keys: HashMap<(Language, String), Vec<ConceptId>>,
    /// Normalized Latin surface word → the languages that list it.
    surface: HashMap<String, Vec<Language>>,
}

/// The one shared index.
static INDEX: LazyLock<Index> = LazyLock::new(build_index);

/// Returns a concept's surface words with their languages.
fn words_of(concept: &Concept) -> impl Iterator<Item = (Language, &'static str)> {
    let en = concept.en.iter().map(|w| (Language::English, *w));
    let ru = concept.ru.iter().map(|w| (Language::Russian, *w));
    let es = concept.es.iter().map(|w| (Language::Spanish, *w));
    en.chain(ru).chain(es)
}

/// Stems every surface word in its own language and indexes it.
/// Normalizes one lexicon word, skipping the full (NFKC) normalizer for words that are
/// already plain lowercase Latin or Cyrillic: building the index ran `normalize` on
/// about a thousand words in every process that checks for duplicates, a third of a
/// small `tasks check`'s time. A test keeps this equal to `normalize`.
fn normalize_word(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_lowercase() || ('а'..='я').contains(&c)) {
        word.to_string()
    } else {
        normalize(word)
    }
}

fn build_index() -> Index {
    let stemmers = Stemmers::get();
    let mut keys: HashMap<(Language, String), Vec<ConceptId>> = HashMap::new();
    let mut surface: HashMap<String, Vec<Language>> = HashMap::new();
    for concept in CONCEPTS {
        let id = ConceptId(concept.id);
        for (language, word) in words_of(concept) {
            let word = normalize_word(word);
            let ids = keys.entry((language, stemmers.stem(language, &word))).or_default();
            if !ids.contains(&id) {
                ids.push(id);
            }
            if language != Language::Russian {
                let languages = surface.entry(word).or_default();
                if !languages.contains(&language) {
                    languages.push(language);
                }
            }
        }
    }
    Index { keys, surface }
}

/// Returns the (language, stem) keys a text token is looked up by.
fn lookup_keys(token: &TokenStems) -> Vec<(Language, &str)> {
    match token.script {
        Script::Cyrillic => vec![(Language::Russian, token.stems[0].as_str())],
        Script::Latin => {
            let english = token.stems[0].as_str();
            let spanish = token.stems.get(1).unwrap_or(&token.stems[0]).as_str();
            let listed = INDEX.surface.get(&token.token);
            let wants = |language| listed.is_none_or(|l| l.contains(&language));
            let mut keys = Vec::new();
            if wants(Language::English) {
                keys.push((Language::English, english));
            }
            if wants(Language::Spanish) {
                keys.push((Language::Spanish, spanish));
            }
            keys
        }
        Script::Numeric | Script::Other => Vec::new(),
    }
}

/// Returns the concepts the given tokens name, each once, in first-seen order.
pub fn concepts(tokens: &[TokenStems]) -> Vec<ConceptId> {
    let mut out = Vec::new();
    for token in tokens {
        for (language, stem) in lookup_keys(token) {
            let found = INDEX.keys.get(&(language, stem.to_owned()));
            for id in found.into_iter().flatten() {
                if !out.contains(id) {
                    out.push(*id);
                }
            }
        }
    }
    out
}

/// Returns the concepts of a text (its [`token_stems`] looked up in the lexicon).
pub fn concepts_of(text: &str) -> Vec<ConceptId> {
    concepts(&token_stems(text))
}

/// Returns every concept id in the lexicon, in table order.
pub fn all_concepts() -> impl Iterator<Item = ConceptId> {
    CONCEPTS.iter().map(|concept| ConceptId(concept.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stems::is_stop_word;

    fn check(text: &str, expected: &[&str]) {
        let got: Vec<&str> = concepts_of(text).into_iter().map(ConceptId::name).collect();
        assert_eq!(got, expected, "concepts_of({text:?})");
    }

    #[test]
    fn every_surface_word_stems_to_its_concept() {
        for concept in CONCEPTS {
            for (language, word) in words_of(concept) {
                let normalized = normalize(word);
                assert!(
                    !normalized.contains(' '),
                    "{word:?} of {} is several tokens: multi-word entries are not read",
                    concept.id
                );
                assert!(!is_stop_word(&normalized), "{word:?} of {} is a stop-word", concept.id);
                let stem = Stemmers::get().stem(language, &normalized);
                assert!(!stem.is_empty(), "{word:?} of {} stems to nothing", concept.id);
                let got = concepts_of(word);
                assert!(got.contains(&ConceptId(concept.id)), "{word:?} of {} gives {got:?}", concept.id);
            }
        }
    }

    #[test]
    fn no_accidental_shared_keys() {
        // Keys shared by two concepts; each is a word deliberately listed under both.
        let allowed = [(Language::Russian, "перевест"), (Language::Russian, "перевод")];
        let mut shared: Vec<_> = INDEX
            .keys
            .iter()
            .filter(|(_, ids)| ids.len() > 1)
            .map(|((language, stem), ids)| (*language, stem.as_str(), ids.clone()))
            .collect();
        shared.retain(|(language, stem, _)| !allowed.contains(&(*language, *stem)));
        assert!(shared.is_empty(), "keys shared by concepts: {shared:?}");
    }

    #[test]
    fn size() {
        let mut names: Vec<&str> = all_concepts().map(ConceptId::name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "concept ids must be unique");
        assert!((100..=250).contains(&count), "lexicon has {count} concepts");
        let words: usize = CONCEPTS.iter().map(|c| words_of(c).count()).sum();
        assert!(words >= 500, "lexicon has {words} surface words");
    }

    #[test]
    fn across_languages() {
        check("Send the invoice", &["send", "invoice"]);
        check("Отправить счёт", &["send", "invoice"]);
        check("Enviar la factura", &["send", "invoice"]);
        check("Пришли счет", &["send", "invoice"]);
        check("Call the dentist", &["call", "dentist"]);
        check("Позвонить стоматологу", &["call", "dentist"]);
        check("Llamar al dentista", &["call", "dentist"]);
        check("Подписать договор", &["sign", "contract"]);
        check("Firmar el contrato", &["sign", "contract"]);
        check("Sign the contract", &["sign", "contract"]);
        check("Buy train tickets", &["buy", "train", "ticket"]);
        check("Купить билеты на поезд", &["buy", "ticket", "train"]);
        check("Comprar billetes de tren", &["buy", "ticket", "train"]);
        check("Оплатить аренду", &["pay", "rent"]);
        check("Pagar el alquiler", &["pay", "rent"]);
    }

    #[test]
    fn language_of_a_listed_word_wins() {
        check("landing page", &["website", "page"]);
        check("pagar", &["pay"]);
    }

    #[test]
    fn polysemy_yields_both() {
        check("перевести", &["translate", "transfer"]);
        check("Quarterly numbers", &[]);
        check("15000 ₽", &[]);
    }

    #[test]
    fn the_fast_word_normalization_equals_the_full_one() {
        for concept in CONCEPTS {
            for (_, word) in words_of(concept) {
                assert_eq!(normalize_word(word), normalize(word), "{word}");
            }
        }
    }
}
