// The built-in completion source where the user's lines repeat a copy with one name swapped for
// another (engine/src/complete/align.ts swapNames): the copy's next line is offered as the user's
// variant, not as the copy's. The fixtures are the shapes of gson's JsonReaderTest, axum's
// from_request tests and libuv's errno.h, where the file's own earlier block is the copy.
import * as assert from 'assert';
import { completeFromSources } from '../../engine/src/complete/builtin';
import { differingWords, replaceWords } from '../../engine/src/complete/align';

const complete = (file: string, language: string, prefix: string[], suffix: string[]) =>
  completeFromSources({ file, prefix: prefix.join('\n'), line: prefix.length - 1, language, suffix: suffix.join('\n') }, [], { idf: () => 3 });

describe('built-in completion: a name the user swapped in the lines before the cursor', () => {
  it('offers the swapped name where the copy goes on with its own (Rust, a trait impl for another type)', () => {
    const prefix = [
      'use axum::extract::rejection::{JsonRejection, PathRejection};',
      '',
      'struct MyError(Response);',
      '',
      'impl From<PathRejection> for MyError {',
      '    fn from(rejection: PathRejection) -> Self {',
      '        Self(rejection.into_response())',
      '    }',
      '}',
      '',
      'impl From<JsonRejection> for MyError {',
      '',
    ];
    const r = complete('tests/option_via_json.rs', 'rust', prefix, ['', '        Self(rejection.into_response())', '    }', '}']);
    assert.strictEqual(r?.text.split('\n')[0], '    fn from(rejection: JsonRejection) -> Self {', JSON.stringify(r));
  });

  it('follows a swapped word into a longer name (Java, `beginObject` where the copy began an array)', () => {
    const prefix = [
      '  @Test',
      '  public void testReadEmptyArray() throws IOException {',
      '    JsonReader reader = new JsonReader(reader("[]"));',
      '    reader.beginArray();',
      '    assertThat(reader.hasNext()).isFalse();',
      '    reader.endArray();',
      '    assertThat(reader.peek()).isEqualTo(JsonToken.END_DOCUMENT);',
      '  }',
      '',
      '  @Test',
      '  public void testReadEmptyObject() throws IOException {',
      '    JsonReader reader = new JsonReader(reader("{}"));',
      '    reader.beginObject();',
      '    assertThat(reader.hasNext()).isFalse();',
      '',
    ];
    const r = complete('src/test/JsonReaderTest.java', 'java', prefix, ['', '    assertThat(reader.peek()).isEqualTo(JsonToken.END_DOCUMENT);', '  }']);
    assert.strictEqual(r?.text.split('\n')[0], '    reader.endObject();', JSON.stringify(r));
  });

  it('follows a swapped macro name into the name it is part of (C, one errno after another)', () => {
    const prefix = [
      '#if defined(EACCES) && !defined(_WIN32)',
      '# define UV__EACCES UV__ERR(EACCES)',
      '#else',
      '# define UV__EACCES (-4092)',
      '#endif',
      '',
      '#if defined(ECONNREFUSED) && !defined(_WIN32)',
      '',
    ];
    const r = complete('include/uv/errno.h', 'c', prefix, ['', '#else', '# define UV__ECONNREFUSED (-4078)', '#endif']);
    assert.strictEqual(r?.text, '# define UV__ECONNREFUSED UV__ERR(ECONNREFUSED)', JSON.stringify(r));
  });

  it('drops a word the user dropped from a name (Java, `LocalTime` where the copy has `LocalDateTime`)', () => {
    const prefix = [
      '  private static TypeAdapter<OffsetDateTime> offsetDateTime(Gson gson) {',
      '    TypeAdapter<LocalDateTime> localDateTimeAdapter = gson.getAdapter(LocalDateTime.class);',
      '    TypeAdapter<ZoneOffset> zoneOffsetAdapter = gson.getAdapter(ZoneOffset.class);',
      '    return new TypeAdapter<OffsetDateTime>() {',
      '      @Override',
      '      public void write(JsonWriter out, OffsetDateTime value) throws IOException {}',
      '    };',
      '  }',
      '',
      '  private static TypeAdapter<OffsetTime> offsetTime(Gson gson) {',
      '    TypeAdapter<LocalTime> localTimeAdapter = gson.getAdapter(LocalTime.class);',
      '    TypeAdapter<ZoneOffset> zoneOffsetAdapter = gson.getAdapter(ZoneOffset.class);',
      '',
    ];
    const r = complete('src/main/JavaTimeTypeAdapters.java', 'java', prefix, ['', '      @Override']);
    assert.strictEqual(r?.text.split('\n')[0], '    return new TypeAdapter<OffsetTime>() {', JSON.stringify(r));
  });

  it('splits names into words at humps, capitals and underscores', () => {
    assert.deepStrictEqual(differingWords('beginArray', 'beginObject'), ['Array', 'Object']);
    assert.deepStrictEqual(differingWords('EACCES', 'ECONNREFUSED'), ['EACCES', 'ECONNREFUSED']);
    assert.deepStrictEqual(differingWords('OffsetDateTime', 'OffsetTime'), ['Date', '']);
    assert.strictEqual(replaceWords('endArray', 'Array', 'Object'), 'endObject');
    assert.strictEqual(replaceWords('UV__EACCES', 'EACCES', 'ECONNREFUSED'), 'UV__ECONNREFUSED');
    // Not a word of the name: `Arrays` is one hump.
    assert.strictEqual(replaceWords('toArrays', 'Array', 'Object'), undefined);
    assert.strictEqual(replaceWords('beginArrayList', 'Array', 'Object'), 'beginObjectList');
    assert.strictEqual(replaceWords('OffsetDateTime', 'Date', ''), 'OffsetTime');
  });
});
