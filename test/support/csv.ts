/** Rows of a CSV text with double-quoted fields (doubled quotes inside, line breaks in quotes), as LogHub's structured files write them. */
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else if (character !== '\r') field += character;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
