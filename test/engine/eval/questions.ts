// Questions a customer might ask about the documents of this folder, written before the
// responder was run on them, each with a fragment of the reply a good answer holds. `null`
// marks a question the document does not answer: the right reply is the no-answer text.
// Categories: asked with the document's own words; paraphrased; needing the right one of
// several similar passages; unanswerable but sharing words with the text; small talk;
// follow-ups, asked after an earlier question (`after`), most of them meaningless without it
// ("How much does it cost?" after asking about delivery); and questions behind a lead-in
// ("ok, another thing: …"). An expected list of fragments must all be in the reply.
// The clinic's FAQ is held out: its document and questions were written and committed before
// the engine was run on them, and the engine is never tuned to them, so its score estimates
// how the responder does on material nobody tuned it for.

export type Category = 'verbatim' | 'paraphrase' | 'similar' | 'unanswerable' | 'small talk' | 'follow-up' | 'lead-in';

export type EvalQuestion = {
  /** The document's file name, in the folder of its question set. */
  document: string;
  category: Category;
  question: string;
  /** The user's earlier question, for a follow-up. */
  after?: string;
  expected: string | string[] | null;
};

type DevDocument = 'handbook.md' | 'bike-shop.md' | 'thermostat-manual.md' | typeof HELD_OUT;

export const HELD_OUT = 'clinic-faq.md';

export type Row = [Category, string, string | string[] | null, string?];

const rows = (document: DevDocument, list: Row[]): EvalQuestion[] =>
  list.map(([category, question, expected, after]) => ({ document, category, question, expected, ...(after ? { after } : {}) }));

export const QUESTIONS: EvalQuestion[] = [
  ...rows('handbook.md', [
    ['verbatim', 'What time does customer service open on weekdays?', 'available from 8:30 to 18:00, Monday to Friday'],
    ['verbatim', 'Can I visit your showroom?', 'The showroom at Oudegracht 112 in Utrecht is open'],
    ['verbatim', 'Do your prices include VAT?', 'All prices on the website include Dutch VAT'],
    ['paraphrase', 'Which payment methods are accepted?', 'We accept iDEAL, Visa, Mastercard'],
    ['paraphrase', 'Do students get discounts?', 'Students receive a discount of 10 percent'],
    ['paraphrase', 'How long does delivery to Germany take?', 'delivery to other EU countries takes three to five working days'],
    ['similar', 'What are the shipping costs?', 'delivery costs 5.95 euros in the Netherlands'],
    ['paraphrase', 'Do you ship to Switzerland?', 'We do not ship outside the European Union'],
    ['verbatim', 'How can I track my parcel?', 'Every parcel gets a tracking code'],
    ['verbatim', 'What is your returns policy?', 'You may return any item within 30 days of delivery'],
    ['similar', 'Can I return a bulb I already used?', 'Bulbs that have been fitted cannot be returned'],
    ['paraphrase', 'How do I send something back?', 'To start a return, open the order in your account'],
    ['paraphrase', 'When will I get my money back?', 'Refunds are paid to the original payment method within 14 days'],
    ['verbatim', 'How long is the warranty on lamps?', 'All lamps carry a two-year warranty'],
    ['similar', 'How long is the warranty on smart lighting kits?', 'Smart lighting kits carry a three-year warranty'],
    ['paraphrase', 'Is water damage covered by the warranty?', 'The warranty does not cover damage caused by dropping the product'],
    ['verbatim', 'How do I make a warranty claim?', 'send a photo of the defect and your order number'],
    ['paraphrase', 'I forgot my password, what now?', 'To reset your password, click Forgot password'],
    ['paraphrase', 'Do you sell my data to other companies?', 'We never sell personal data to third parties'],
    ['paraphrase', 'How do I stop receiving newsletters?', 'You can unsubscribe from the newsletter'],
    ['paraphrase', 'What is your phone number?', 'Call us on +31 30 123 4567'],
    ['similar', 'How long do you keep order records?', 'Order records are kept for seven years'],
    ['similar', 'How do I delete my account?', 'To close your account, send a request'],
    ['verbatim', 'Can I order as a guest?', 'You can order as a guest'],
    ['similar', 'How quickly do you answer emails?', 'We answer emails within one working day'],
    ['unanswerable', 'Do you offer gift wrapping?', null],
    ['unanswerable', 'Can I pay with cryptocurrency?', null],
    ['unanswerable', 'Do you have a physical store in Amsterdam?', null],
    ['unanswerable', 'Who is the CEO of Lumen & Co.?', null],
    ['unanswerable', 'Do you install lamps at home?', null],
    ['unanswerable', 'Is there a loyalty programme for lamps?', null],
    ['unanswerable', 'Can I reserve a parking spot at the showroom?', null],
    ['follow-up', 'And on Saturdays?', 'On Saturdays the team answers from 10:00 to 14:00', 'When is customer service available?'],
    ['follow-up', 'What about smart lighting kits?', 'Smart lighting kits carry a three-year warranty', 'How long is the warranty on lamps?'],
    ['follow-up', 'And how long does it take to the rest of the EU?', 'three to five working days', 'How long does delivery in the Netherlands take?'],
    ['follow-up', 'When is it open?', 'open from Wednesday to Saturday, 11:00 to 17:00', 'Do you have a showroom?'],
    ['follow-up', 'And when is it free?', 'Shipping is free for orders above 75 euros', 'How much is shipping to Germany?'],
    ['follow-up', 'How long do I have to pay?', 'Payment by bank transfer must arrive within seven days', 'Can I pay by bank transfer?'],
  ]),
  ...rows('bike-shop.md', [
    ['paraphrase', 'Can I bring back a bike I bought last week?', 'You can return any unused bike'],
    ['paraphrase', 'Do you fix electric bikes?', 'We service all brands, including e-bikes'],
    ['unanswerable', 'Can I pay with bitcoin?', null],
    ['similar', 'When are you open on Saturday?', 'On Saturday we open from 10:00 to 16:00'],
    ['verbatim', 'How much does a basic service cost?', 'A basic service costs 49 euros'],
    ['similar', 'How much does a full service cost?', 'A full service costs 119 euros'],
    ['verbatim', 'Do I need an appointment for a repair?', 'you can drop your bike off during opening hours'],
    ['verbatim', 'Do you sell second-hand bikes?', 'Every second-hand bike is inspected'],
    ['paraphrase', 'Do you have used bicycles for sale?', 'Every second-hand bike is inspected'],
    ['verbatim', 'How long is the warranty on new bikes?', 'at least two years on parts and five years on the frame'],
    ['similar', 'How long is the battery of an e-bike covered?', 'Batteries of e-bikes are covered for two years'],
    ['verbatim', 'Can I rent a bike?', 'City bikes can be rented for 15 euros a day'],
    ['similar', 'How much does it cost to rent an e-bike?', 'E-bikes cost 35 euros a day'],
    ['paraphrase', 'Is there a deposit for rentals?', 'A deposit of 100 euros is required'],
    ['paraphrase', 'Can I take a test ride?', 'Test rides are free'],
    ['verbatim', 'Do you deliver bikes?', 'We deliver bikes within 25 km of the shop for 20 euros'],
    ['similar', 'When is delivery free?', 'Delivery is free for bikes above 1,000 euros'],
    ['verbatim', 'Which cards do you accept?', 'We accept cash, debit cards, Visa and Mastercard'],
    ['paraphrase', 'Can I pay in instalments?', 'Bikes above 800 euros can be paid in 12 monthly instalments'],
    ['paraphrase', 'Is leasing through my employer possible?', 'Company bike leasing is possible through Lease-a-Bike'],
    ['verbatim', 'What is your phone number?', 'Call us on 020 555 0147'],
    ['similar', 'When can I ask the mechanic a technical question?', 'Our mechanic Mr. Jansen answers technical questions on Tuesdays and Thursdays'],
    ['paraphrase', 'Where is your shop?', 'Our shop on 12 Harbour Street'],
    ['paraphrase', 'How long does a repair take?', 'Most repairs are ready within two working days'],
    ['similar', 'Can I exchange a clearance item?', 'they can be exchanged within 14 days'],
    ['paraphrase', 'Are you open on Sundays?', 'The shop is closed on Sundays and public holidays'],
    ['unanswerable', 'Do you sell skateboards?', null],
    ['unanswerable', 'Can I rent a tandem for a wedding?', null],
    ['unanswerable', 'Do you ship bikes abroad to France?', null],
    ['unanswerable', 'Is there a student discount on bikes?', null],
    ['unanswerable', 'Do you buy old bikes for cash?', null],
    ['unanswerable', 'Do you offer bike fitting sessions?', null],
    ['follow-up', 'And on Saturday?', 'On Saturday we open from 10:00 to 16:00', 'What are your opening hours?'],
    ['follow-up', 'And a full one?', 'A full service costs 119 euros', 'How much does a basic service cost?'],
    ['follow-up', 'What about e-bikes?', 'E-bikes cost 35 euros a day', 'How much is it to rent a city bike?'],
    ['follow-up', 'How much does it cost?', 'We deliver bikes within 25 km of the shop for 20 euros', 'Do you deliver bikes?'],
    ['follow-up', 'How long do I have?', 'within 30 days of purchase', 'Can I return a bike I bought?'],
    ['follow-up', 'Do they come with a warranty?', 'sold with a six-month warranty', 'Do you sell second-hand bikes?'],
    ['small talk', 'Hello!', 'Hi! What can I help you with?'],
    ['small talk', 'Thanks a lot!', "You're welcome"],
    ['small talk', 'Who are you?', "I'm Eval helper"],
    ['small talk', 'Goodbye', 'Goodbye'],
    ['small talk', 'Good morning', 'Hi! What can I help you with?'],
    ['small talk', 'thank you very much', "You're welcome"],
    ['small talk', 'What is your name?', "I'm Eval helper"],
    ['small talk', 'Are you a bot?', "I'm Eval helper"],
    ['small talk', 'ok bye', 'Goodbye'],
  ]),
  ...rows('thermostat-manual.md', [
    ['verbatim', 'What is in the box?', 'The box holds the T2 thermostat, a wall plate, two AA batteries'],
    ['paraphrase', 'Is a stand included?', 'The optional stand (sold separately)'],
    ['verbatim', 'What should I do before installing the thermostat?', 'Turn off the power to your heating system at the fuse box'],
    ['similar', 'Which terminal does the red wire go to?', 'the red wire goes to terminal R'],
    ['paraphrase', 'How long does installation take?', 'Installation takes about 30 minutes'],
    ['similar', 'What if my system has more than four wires?', 'ask a certified installer'],
    ['verbatim', 'How do I connect to Wi-Fi?', 'Open the Nestwarm app and tap Add device'],
    ['paraphrase', 'Does it work with 5 GHz networks?', '5 GHz networks are not supported'],
    ['verbatim', 'How do I set a schedule?', 'tap Schedule and choose a temperature for each part of the day'],
    ['paraphrase', 'Can I copy the schedule to other days?', "You can copy a day's schedule to other days"],
    ['verbatim', 'What does eco mode do?', 'Eco mode lowers the temperature to 16.5 °C when nobody is home'],
    ['paraphrase', 'How does it know when nobody is home?', "The T2 uses your phone's location"],
    ['similar', 'How do I change the eco temperature?', 'You can change the eco temperature in Settings > Eco'],
    ['verbatim', 'How long do the batteries last?', 'The batteries last about one year'],
    ['paraphrase', 'Can I use rechargeable batteries?', 'rechargeable batteries are not supported'],
    ['similar', 'How do I know the batteries are low?', 'the screen shows a battery icon'],
    ['paraphrase', 'The display is blank, what should I do?', 'Check the batteries and the fuse of the heating system'],
    ['similar', 'The thermostat cannot find my network', 'Move the router closer'],
    ['paraphrase', 'My room stays cold', 'Check that the radiator valves are open'],
    ['verbatim', 'How do I reset the T2 to factory settings?', 'hold the button for 20 seconds until the ring turns red'],
    ['similar', 'What does a reset delete?', 'A reset deletes the schedule and the Wi-Fi settings'],
    ['verbatim', 'How long is the warranty?', 'The T2 has a two-year warranty'],
    ['paraphrase', 'How can I extend the warranty?', 'Register your device at www.nestwarm.example/register'],
    ['paraphrase', 'How do I contact support?', 'email help@nestwarm.example or call 0800 123 456'],
    ['unanswerable', 'Does the T2 work with Apple HomeKit?', null],
    ['unanswerable', 'Can the thermostat control my air conditioning?', null],
    ['unanswerable', 'What is the price of the thermostat?', null],
    ['unanswerable', 'Can I install the T2 outdoors in the garden?', null],
    ['unanswerable', 'Does the app run on a smartwatch?', null],
    ['follow-up', 'And a 5 GHz one?', '5 GHz networks are not supported', 'Does it work with a 2.4 GHz network?'],
    ['follow-up', 'Can I change it?', 'You can change the eco temperature in Settings > Eco', 'What temperature does eco mode use?'],
    ['follow-up', 'How long does it take?', 'Installation takes about 30 minutes', 'How do I install the thermostat?'],
    ['follow-up', 'How does it know nobody is home?', "uses your phone's location", 'What does eco mode do?'],
  ]),
  ...rows(HELD_OUT, [
    ['verbatim', 'How do I book an appointment?', 'You can book online through the patient portal'],
    ['verbatim', 'How do I cancel an appointment?', 'Please cancel at least 24 hours in advance'],
    ['verbatim', 'How do I order a repeat prescription?', 'Order repeat prescriptions through the patient portal'],
    ['verbatim', 'When will I get my blood test results?', 'Most blood test results are ready within five working days'],
    ['verbatim', 'Do you offer video consultations?', 'video consultations on Tuesday and Thursday afternoons'],
    ['paraphrase', 'Can I get an appointment today?', 'Same-day appointments are released at 8:00'],
    ['paraphrase', 'What number do I call at night?', 'call the out-of-hours GP service on 0900 1515'],
    ['paraphrase', 'Do I have to fast before a blood test?', 'do not eat for eight hours'],
    ['paraphrase', 'How much does a visit cost without insurance?', 'Patients without Dutch insurance pay 45 euros'],
    ['paraphrase', 'Can I get a copy of my medical file?', 'You may request a copy of your records'],
    ['paraphrase', 'How do I move my records from my old doctor?', 'we ask your previous GP to send your records'],
    ['paraphrase', 'Where can I get vaccines for a trip abroad?', 'Travel vaccinations are given by the municipal health service'],
    ['similar', 'What are the opening hours on Wednesday evening?', 'On Wednesday evening we hold an extra surgery from 18:00 to 20:00'],
    ['similar', 'When are blood samples taken?', 'Blood tests are taken at the practice on weekday mornings'],
    ['similar', 'When is a repeat prescription ready?', 'ready at your pharmacy after two working days'],
    ['similar', 'How quickly do you reply to emails?', 'we reply within two working days'],
    ['similar', 'How long does the transfer of my records take?', 'This usually takes two to four weeks'],
    ['unanswerable', 'Do you offer dental check-ups?', null],
    ['unanswerable', 'Can I park my car at the practice?', null],
    ['unanswerable', 'Can I bring my dog to an appointment?', null],
    ['unanswerable', 'Does the practice have its own pharmacy?', null],
    ['unanswerable', 'Who is the head doctor of the practice?', null],
    ['unanswerable', 'Can I get a sick note for my employer?', null],
    ['unanswerable', 'Do you offer physiotherapy sessions?', null],
    ['small talk', 'Hi there', 'Hi! What can I help you with?'],
    ['small talk', 'Thank you!', "You're welcome"],
    ['small talk', 'Who am I talking to?', "I'm Eval helper"],
    ['small talk', 'bye for now', 'Goodbye'],
    ['follow-up', 'And on Wednesday evening?', 'On Wednesday evening we hold an extra surgery from 18:00 to 20:00', 'When is the practice open?'],
    ['follow-up', 'And how long does it take?', 'ready at your pharmacy after two working days', 'How do I order a repeat prescription?'],
    ['follow-up', 'What about travel vaccinations?', 'Travel vaccinations are given by the municipal health service', 'Who gets the flu vaccination?'],
  ]),
];
