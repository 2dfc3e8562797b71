/**
 * Word lists for telling capitalised names from capitalised ordinary words. All lower-case.
 */

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter((w) => w.length > 0));
}

/** Months and weekdays: dates, never names (so "May" and "August" are lost as first names). */
export const CALENDAR_WORDS = words(`
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec
  monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
  mondays tuesdays wednesdays thursdays fridays saturdays sundays
`);

/** Never part of a name wherever they stand, capitalised or not. */
export const HARD_STOPWORDS = words(`
  i i'm i've i'll i'd me my mine we us our ours you your yours he him his she her hers it its they them
  their theirs this that these those the a an some any all each every no none both either neither
  another other such what which who whom whose where when why how whatever whoever
  and or but nor so yet for of in on at to from by with without within into onto over under about
  above below after before since until till during through across against among between behind
  beyond near per via than then if unless because although though while whereas as like up down out off
  hi hello hey thanks thank yes yeah yep nope oh ok okay wow cool great sure please sorry dear congrats
  congratulations bye goodbye welcome cheers hmm haha lol omg
  today tomorrow yesterday tonight now
  mr mrs ms miss mx dr prof sir madam
  todo fixme note warning error tip important however therefore moreover furthermore meanwhile
`);

/**
 * Dropped only at the start of a sentence, where capitalisation says nothing: adverbs, verbs and
 * nouns that open sentences and commit messages ("Finally ...", "Fixed ...", "Will you ...").
 */
export const SOFT_STOPWORDS = words(`
  actually basically finally recently usually unfortunately fortunately honestly obviously clearly
  currently previously eventually additionally ideally apparently hopefully luckily sadly really only
  likely simply initially originally generally typically normally certainly definitely probably
  possibly personally technically essentially lately surprisingly interestingly importantly
  alternatively similarly consequently accordingly thus hence also still instead
  otherwise besides anyway anyways regardless nevertheless nonetheless
  perhaps maybe again once twice first second third next last later earlier soon already always never
  sometimes often here there whenever wherever let let's lets see check make use run add added fix fixed
  update updated remove removed change changed create created delete deleted move moved rename renamed
  refactor refactored implement implemented install installed set get try tried keep avoid ensure don't
  do does did done is are was were be been being have has had can could would should will shall might
  must need needs want wanted went go going got came come said says told ask asked tell thought think
  know knew feel felt love loved liked hope wish looking look looks looked started start stop stopped
  found find read wrote write watched watch took take made gave give put saw seen turns turned sounds
  seems seemed glad happy nice good awesome amazing wonderful totally exactly absolutely true false new
  old big small many much more most few less least same different example step steps result results
  summary overview goal goals question answer problem solution issue bug feature decision reason even
  almost nothing something everything anything someone everyone anyone nobody everybody somebody
  one two three four five six seven eight nine ten hundred thousand
  cannot can't won't didn't doesn't isn't wasn't aren't couldn't shouldn't wouldn't
  setup install installation usage copy open click configure deploy build test testing introduction
  background context notes requirements prerequisites getting started contributing license changelog
  features reference examples troubleshooting faq description details motivation alternatives
  conclusion status update updates fixes changes
`);

/** Lower-case words that may join the parts of a name: "Bank of America", "Ludwig van Beethoven". */
export const NAME_CONNECTORS = words('of de van von der den da del della di du la le bin al y');

/**
 * Brands and products whose inner capitals make them look like code identifiers; they are read as
 * names instead of symbols.
 */
export const BRAND_NAMES = words(`
  youtube linkedin paypal wordpress playstation macbook facetime whatsapp tiktok deepmind iphone ipad
  macos ios ipados watchos tvos visionos ebay icloud itunes airpods powerpoint onedrive sharepoint
  mastercard soundcloud dropbox
`);

/** Words shaped like identifiers that are neither code nor names. */
export const NOT_IDENTIFIERS = words('oauth devops gitops finops mlops phd ids urls apis prs');
