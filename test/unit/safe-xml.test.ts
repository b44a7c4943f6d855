import { parseXml } from '../../shared/domain/e-invoices/incoming/safe-xml';

/**
 * The tree the incoming e-invoice reader builds, where its shortcuts could change it: siblings of one
 * name (with and without attributes) in a list, text around child elements kept with the white space
 * between its parts, an end tag closing by local name whatever its prefix or trailing space.
 */
describe('parseXml', () => {
  it('keeps repeated siblings in order, attributes beside text, and text split by children with its inner white space', () => {
    const xml = '<a>\n  <b x="1"/>\n  <b>t</b>\n  <c>  x<d/> <d/>y  </c>\n  <e y="2">  z  </e>\n</a>';
    expect(parseXml(xml)).toEqual({ a: { b: [{ '@_x': '1' }, 't'], c: { d: ['', ''], '#text': 'x y' }, e: { '@_y': '2', '#text': 'z' } } });
  });

  it('closes an element by its local name, whatever the prefix or space in the end tag', () => {
    expect(parseXml('<p:a xmlns:p="u"><q:b>1</r:b><s:b/></p:a >')).toEqual({ a: { b: ['1', ''] } });
  });

  it('refuses an end tag that closes another element, or an element never closed', () => {
    expect(() => parseXml('<a><b>1</c></a>')).toThrow(/<\/c> does not close <b>/);
    expect(() => parseXml('<a><b>1</b>')).toThrow(/<a> is never closed/);
  });
});
